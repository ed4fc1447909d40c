import { readFile } from "node:fs/promises";
import { test as base, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { postJson } from "../harness/http";
import { fillStateFileImport } from "./state-file";

/** Every test's wallet talks to this run's local regtest world. */
export const test = base.extend<{ esplora: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  esplora: async ({}, use) => {
    const url = process.env.HARNESS_ESPLORA;
    if (!url) throw new Error("The regtest world did not start");
    await use(url);
  },
  page: async ({ page, esplora }, use) => {
    await page.addInitScript((url) => {
      if (!localStorage.getItem("USER_SETTINGS_esplora")) localStorage.setItem("USER_SETTINGS_esplora", url);
      // the world's own gossip, never another world's that may listen on the default port
      if (!localStorage.getItem("USER_SETTINGS_rgs"))
        localStorage.setItem("USER_SETTINGS_rgs", `${url}/rgs/snapshot/`);
    }, esplora);
    await use(page);
  },
});
export { expect };

/** Creates a new wallet from the welcome screen (skipping the first-run profile) and waits for home. */
export const createWallet = async (page: Page) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByRole("button", { name: "New wallet" }).click();
  await expect(page).toHaveURL(/\/(newprofile)?$/);
  if (page.url().endsWith("/newprofile")) await page.getByRole("button", { name: "Skip" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await walletMade(page);
};

/** Home drawn while its new wallet is made takes no action until it exists: this waits until it does. */
export const walletMade = (page: Page) =>
  expect(page.locator("main.home")).not.toHaveAttribute("inert", { timeout: 60_000 });

/**
 * Stops the wallet's lightning node from the admin page once it runs, which gives the storage server's
 * device lock up: another browser may then open the same words at once (one device at a time).
 */
export const stopNode = async (page: Page, password?: string) => {
  await page.goto("/settings/admin");
  // A wallet with a password opens locked on a fresh load: its node starts once it is unlocked.
  if (password) {
    const unlock = page.getByRole("dialog", { name: "Enter your password" });
    await unlock.getByLabel("Password").fill(password);
    await unlock.getByRole("button", { name: "Decrypt wallet" }).click();
    await expect(unlock).toHaveCount(0);
  }
  await expect(page.getByText("Status: running")).toBeVisible({ timeout: 90_000 });
  await page.getByRole("button", { name: "Stop node" }).click();
  await expect(page.getByText("Status: stopped")).toBeVisible();
};

/** Asks for a sync and waits until it is done. */
export const syncNow = async (page: Page) => {
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByRole("button", { name: "Sync now" })).toBeEnabled();
};

/** Pays `sats` on-chain to a new receive address of the wallet, confirms it, and waits for home to show it. */
export const fundOnchain = async (page: Page, esplora: string, sats: number) => {
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  await postJson(esplora, "/faucet", { address, sats });
  await postJson(esplora, "/mine", { blocks: 1 });
  await page.goto("/");
  await syncNow(page);
  await expect(page.getByTestId("onchain-balance")).toHaveText(`${sats.toLocaleString("en-US")} sats`);
};

/** Clicks `button`, which downloads a file named `name`, and keeps it in the test's output: its path and text. */
export const downloadFrom = async (button: Locator, info: TestInfo, name: string) => {
  const downloading = button.page().waitForEvent("download");
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(name);
  const file = info.outputPath(name);
  await download.saveAs(file);
  return { file, text: await readFile(file, "utf8") };
};

/** Saves the wallet's state from the emergency kit, encrypted with `password`; answers the file's path and text. */
export const saveStateFile = async (page: Page, info: TestInfo, password: string) => {
  await page.goto("/settings/emergencykit");
  await page.getByRole("button", { name: "Save state as file" }).click();
  await page.getByLabel("Password").fill(password);
  return downloadFrom(page.getByRole("button", { name: "Download" }), info, "mutiny-state.json");
};

/** Chooses `value` on the settings page of the wallet's `what`, and waits for home. */
export const chooseSetting = async (page: Page, what: "language" | "currency", value: string) => {
  await page.goto(`/settings/${what}`);
  await page.getByLabel(what === "language" ? "Language" : "Currency", { exact: true }).selectOption(value);
  await page.getByRole("button", { name: `Select ${what}` }).click();
  await expect(page).toHaveURL(/\/$/);
};

/** Deletes everything from the emergency kit, and waits for the welcome screen. */
export const deleteEverything = async (page: Page) => {
  await page.goto("/settings/emergencykit");
  await page.getByRole("button", { name: "Delete everything" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete everything" }).click();
  await expect(page).toHaveURL(/\/setup$/);
};

/** Imports a state file from the emergency kit with its password, and waits for home. */
export const importStateFile = async (page: Page, file: string, password: string) => {
  await (await fillStateFileImport(page, file, password)).click();
  // The file's password is stretched (real iterations), then the wallet reloads.
  await expect(page).toHaveURL(/\/$/, { timeout: 90_000 });
};
