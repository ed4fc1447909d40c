import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createWallet, expect, stopNode, test } from "./fixtures";
import { freshBrowserPage, seedWords } from "./steps";

const PASSWORD = "correct horse battery staple";

// Each test stretches passwords several times at the product's real cost (PBKDF2-SHA256, 2,000,000
// iterations for the device, 600,000 for a file: about a second each on a quiet machine, several on two busy
// cores), on top of creating and reloading wallets: the time is sized to that work, not to a quiet machine.
test.describe.configure({ timeout: 180_000 });

/** Shows the seed, ticks the three acknowledgements and confirms; answers the words. */
const backUp = async (page: Page) => {
  const words = await seedWords(page);
  for (const box of await page.getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "I wrote down the words" }).click();
  await expect(page).toHaveURL(/\/$/);
  return words;
};

const setPassword = async (page: Page, password: string) => {
  await page.goto("/settings");
  await page.getByRole("link", { name: "Change password" }).click();
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password saved")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
};

/** Every value of every table of the wallet's database, as text. */
const rawDatabase = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open("mutiny-wallet-regtest");
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const out: string[] = [];
    for (const name of Array.from(db.objectStoreNames)) {
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      out.push(
        JSON.stringify(rows, (_k, v) =>
          v instanceof Uint8Array ? Array.from(v) : typeof v === "bigint" ? v.toString() : v,
        ),
      );
    }
    db.close();
    return out.join("\n");
  });

test("the password link waits for a backup; back up, set a password, reload: a wrong password is refused, the right one unlocks", async ({
  page,
}) => {
  await createWallet(page);
  await page.goto("/settings");
  await expect(page.getByRole("link", { name: "Change password" })).toHaveCount(0);
  const words = await backUp(page);

  await page.goto("/settings");
  await page.getByRole("link", { name: "Change password" }).click();
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill("something else");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match.");
  await setPassword(page, PASSWORD);
  expect(await rawDatabase(page)).not.toContain(words.join(" "));

  await page.reload();
  const dialog = page.getByRole("dialog", { name: "Enter your password" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Password").fill("not the password");
  await dialog.getByRole("button", { name: "Decrypt wallet" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Incorrect password entered.");
  await dialog.getByLabel("Password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Decrypt wallet" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  await expect(page.getByTestId("receive-address")).toHaveAttribute("title", /^bcrt1q/);

  // The seed opens with the password: the same words as before.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Backup" }).click();
  await page.getByRole("button", { name: "Show the 12 words" }).click();
  const seed = page.getByRole("list", { name: "Seed words" }).getByRole("listitem");
  await expect(seed).toHaveCount(12);
  expect((await seed.allTextContents()).map((w) => w.trim())).toEqual(words);

  // Forgot password leads to the restore from the 12 words.
  await page.goto("/");
  await page
    .getByRole("dialog", { name: "Enter your password" })
    .getByRole("link", { name: "Forgot password?" })
    .click();
  await expect(page).toHaveURL(/\/settings\/restore$/);
  await expect(page.getByRole("dialog", { name: "Enter your password" })).toHaveCount(0);
});

test("removing the password: blank new password, the wallet opens without asking", async ({ page }) => {
  await createWallet(page);
  await backUp(page);
  await setPassword(page, PASSWORD);
  await page.goto("/settings/encrypt");
  await page.getByRole("dialog", { name: "Enter your password" }).getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Decrypt wallet" }).click();
  await expect(page.getByRole("dialog", { name: "Enter your password" })).toHaveCount(0);
  await page.getByLabel("Existing password").fill("wrong");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByRole("alert")).toHaveText("Incorrect password entered.");
  await page.getByLabel("Existing password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password removed")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
  await expect(page.getByRole("dialog", { name: "Enter your password" })).toHaveCount(0);
});

test("an encrypted export from one browser imports into another with the same balance and activity", async ({
  page,
  esplora,
  browser,
}, info) => {
  await createWallet(page);
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  const paid = await fetch(`${esplora}/faucet`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address, sats: 130_000 }),
  });
  expect(paid.ok).toBe(true);
  await page.goto("/");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("onchain-balance")).toHaveText("130,000 sats");
  const words = await backUp(page);
  await setPassword(page, PASSWORD);

  // A fresh load asks for the password first, on any page.
  await page.goto("/settings/emergencykit");
  const unlock = page.getByRole("dialog", { name: "Enter your password" });
  await unlock.getByLabel("Password").fill(PASSWORD);
  await unlock.getByRole("button", { name: "Decrypt wallet" }).click();
  await expect(unlock).toHaveCount(0);
  await page.getByRole("button", { name: "Save state as file" }).click();
  await page.getByLabel("Password").fill("file password");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  const file = info.outputPath("mutiny-state.json");
  await (await downloading).saveAs(file);
  const text = await readFile(file, "utf8");
  expect(text).not.toContain(words.join(" "));
  expect(text).not.toContain(words.slice(0, 3).join(" "));
  // One device at a time: the first stops its node, which gives the storage server's device lock up.
  await stopNode(page, PASSWORD);

  const other = await freshBrowserPage(browser, esplora);
  await other.goto("/settings/emergencykit");
  const chooser = other.waitForEvent("filechooser");
  await other.getByRole("button", { name: "Import state from file" }).click();
  await (await chooser).setFiles(file);
  await other.getByRole("button", { name: "Continue" }).click();
  const ask = other.getByRole("dialog", { name: "Import state from file" });
  await ask.getByLabel("Password").fill(PASSWORD);
  await ask.getByRole("button", { name: "Import state from file" }).click();
  await expect(ask.getByRole("alert")).toHaveText("Incorrect password entered.");
  await ask.getByLabel("Password").fill("file password");
  await ask.getByRole("button", { name: "Import state from file" }).click();
  await expect(other).toHaveURL(/\/$/);
  await expect(other.getByTestId("onchain-balance")).toHaveText("130,000 sats");
  await expect(other.getByRole("button", { name: /Received.*130,000/ })).toBeVisible();
  await other.context().close();
});
