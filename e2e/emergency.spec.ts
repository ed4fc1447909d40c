import { readFile } from "node:fs/promises";
import { chooseSetting, createWallet, downloadFrom, expect, test } from "./fixtures";

// The worker's script must reach the page through the network (where the test breaks it), not from the
// service worker's cache.
test.use({ serviceWorkers: "block" });

const WORKER_SCRIPT = /\/assets\/worker-[^/]*\.js(\?.*)?$/;

/** Opens the emergency kit from the loading-failed screen: emergency mode, in this tab. */
const openKitFromFailure = async (page: import("@playwright/test").Page) => {
  await expect(page.getByRole("heading", { name: "The wallet failed to load" })).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole("button", { name: "Open the emergency kit" }).click();
  await expect(page).toHaveURL(/\/settings\/emergencykit$/);
  await expect(page.getByRole("status").filter({ hasText: "Emergency mode" })).toBeVisible();
};

test("when the wallet's worker cannot start, the emergency kit saves the state, downloads the logs, deletes everything and imports the file without it", async ({
  page,
}, info) => {
  // Several real-cost password stretches (the file's seal and open) and many page loads on two busy cores.
  test.setTimeout(240_000);
  await createWallet(page);
  await chooseSetting(page, "currency", "JPY");

  // The wallet's worker cannot load (a broken deploy, a network fault): every start fails.
  await page.route(WORKER_SCRIPT, (route) => route.fulfill({ status: 500, body: "" }));
  await page.reload();
  await openKitFromFailure(page);

  // The logs say why.
  const logs = await downloadFrom(
    page.getByRole("button", { name: "Download logs" }),
    info,
    "mutiny-logs.txt",
  );
  expect(logs.text).toContain("Failed to initialize Mutiny");

  // Save state works without the wallet's worker.
  await page.getByRole("button", { name: "Save state as file" }).click();
  await page.getByLabel("Password").fill("emergency password");
  const saving = page.waitForEvent("download");
  await page.getByRole("dialog").getByRole("button", { name: "Download" }).click();
  const saved = await saving;
  const file = info.outputPath("mutiny-state.json");
  await saved.saveAs(file);
  expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({
    format: "mutiny-state",
    network: "regtest",
  });

  // Delete everything works too; the wallet is gone (the worker is still broken, so the kit again).
  await page.getByRole("button", { name: "Delete everything" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete everything" }).click();
  await expect(page).toHaveURL(/\/(setup)?$/, { timeout: 30_000 });
  await openKitFromFailure(page);
  await expect(page.getByRole("button", { name: "Save state as file" })).toBeDisabled();

  // Import state brings the wallet back, still in emergency mode.
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import state from file" }).click();
  await (await chooser).setFiles(file);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill("emergency password");
  await page.getByRole("dialog").getByRole("button", { name: "Import state from file" }).click();
  await expect(page.getByText("Imported. Reloading…")).toBeVisible({ timeout: 60_000 });
  await openKitFromFailure(page);
  await expect(page.getByRole("button", { name: "Save state as file" })).toBeEnabled();

  // Once the worker loads again, the same wallet opens normally, with its currency.
  await page.unroute(WORKER_SCRIPT);
  await page.goto("/");
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible({ timeout: 60_000 });
  await page.goto("/settings/currency");
  await expect(page.getByLabel("Currency", { exact: true })).toHaveValue("JPY");
});
