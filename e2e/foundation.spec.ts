import { chooseSetting, createWallet, deleteEverything, expect, saveStateFile, test } from "./fixtures";
import { fillStateFileImport } from "./state-file";

test("a new wallet lands on home with an empty activity list and the backup prompt", async ({ page }) => {
  await createWallet(page);
  await expect(page.getByText("No activity yet")).toBeVisible();
  await expect(page.getByRole("link", { name: /not backed up/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Receive" }).first()).toBeVisible();
});

test("reloading keeps the wallet", async ({ page }) => {
  await createWallet(page);
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
});

test("a second tab gets the existing-tab screen", async ({ page, context }) => {
  await createWallet(page);
  const second = await context.newPage();
  await second.goto("/");
  await expect(second.getByText("Existing tab detected, aborting setup")).toBeVisible();
  // The first tab still runs the wallet.
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
});

test("an unknown path shows not found with a way home", async ({ page }) => {
  await createWallet(page);
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Go home" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
});

test("switching the language to Deutsch changes the visible text", async ({ page }) => {
  await createWallet(page);
  await chooseSetting(page, "language", "de");
  await expect(page.getByRole("tab", { name: "Nur ich" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("tab", { name: "Nur ich" })).toBeVisible();
});

test("the chosen currency shows in the balance", async ({ page }) => {
  await createWallet(page);
  await chooseSetting(page, "currency", "EUR");
  // The total is the one button that changes how every amount shows; the parts follow it.
  const total = page.getByTestId("total-balance");
  const onchain = page.getByTestId("onchain-balance");
  await expect(onchain).toHaveText("0 sats");
  await total.click();
  await expect(total).toHaveText("€0.00");
  await expect(onchain).toHaveText("€0.00");
  await total.click();
  await expect(onchain).toHaveText(/^\*{5}/);
  await expect(total).toHaveAccessibleName("Balance hidden");
  await total.click();
  await expect(onchain).toHaveText("0 sats");
});

test("save state, delete everything, import the file: the same wallet comes back", async ({ page }, info) => {
  // Each save and import stretches the file's password with real iterations, on two busy cores.
  test.setTimeout(180_000);
  await createWallet(page);
  await chooseSetting(page, "currency", "JPY");

  // A state file is always encrypted: no password, no file.
  await page.goto("/settings/emergencykit");
  await page.getByRole("button", { name: "Save state as file" }).click();
  await page.getByRole("button", { name: "Download" }).click();
  await expect(page.getByText("Please enter a password to protect the file.")).toBeVisible();
  const { file, text } = await saveStateFile(page, info, "correct horse battery staple");
  expect(JSON.parse(text)).toMatchObject({ format: "mutiny-state", version: 1, network: "regtest" });
  await deleteEverything(page);

  await (await fillStateFileImport(page, file, "wrong password")).click();
  await expect(page.getByText("Incorrect password entered.")).toBeVisible();
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("dialog").getByRole("button", { name: "Import state from file" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await page.goto("/settings/currency");
  await expect(page.getByLabel("Currency", { exact: true })).toHaveValue("JPY");
});

test("after one visit the wallet opens offline with its last state", async ({ page, context }) => {
  await createWallet(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The service worker controls the page after a reload; then the network can go.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  // The app's files came from the shell's cache through the browser's static routes, not from the network
  // nor the worker's code (a file the page still held in memory shows no source at all).
  const sources = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.startsWith("/assets/") && /\.(js|css)$/.test(e.name))
      .map(
        (e) => (e as PerformanceResourceTiming & { workerFinalSourceType?: string }).workerFinalSourceType,
      ),
  );
  expect(sources.filter((s) => s === "cache").length).toBeGreaterThan(3);
  expect(sources.filter((s) => s !== "cache" && s !== "")).toEqual([]);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
});
