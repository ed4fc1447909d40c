/**
 * One wallet in two browsers (issue 32): the second, restoring the 12 words while the first runs, is told
 * the wallet runs elsewhere with the device lock's countdown; once the first stops, the second takes over
 * on the storage server's state: its channel, history and contacts come back, and home says what came back.
 */
import { createWallet, expect, fundOnchain, stopNode, test } from "./fixtures";
import { freshBrowserPage, openChannelFromOnchain, seedWords } from "./steps";

test("a second browser on the same words waits while the first runs, then restores its channel and contacts from storage", async ({
  page,
  esplora,
  browser,
}) => {
  test.setTimeout(300_000);
  await createWallet(page);
  await fundOnchain(page, esplora, 300_000);
  await openChannelFromOnchain(page, esplora);
  await page.getByRole("list", { name: "Contacts" }).getByRole("button", { name: "New" }).click();
  const create = page.getByRole("dialog", { name: "New contact" });
  await create.getByLabel("Name").fill("Ada");
  await create.getByLabel("Lightning address").fill("ada@example.com");
  await create.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("dialog", { name: "Ada" })).toBeVisible();
  await page.keyboard.press("Escape");
  const words = await seedWords(page);

  const other = await freshBrowserPage(browser, esplora);
  await other.goto("/");
  await other.getByRole("link", { name: "Import existing" }).click();
  for (let i = 0; i < 12; i++) await other.getByLabel(`Word ${i + 1}`, { exact: true }).fill(words[i]!);
  await other.getByRole("button", { name: "Restore" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
  // The first browser holds the device lock: the second counts down instead of starting a second node.
  await expect(other.getByRole("heading", { name: "Running on another device" })).toBeVisible({
    timeout: 90_000,
  });
  await expect(other.getByText(/Trying again in \d+ seconds/)).toBeVisible();

  // The first stops its node (giving the lock up); the second, loaded again, takes over.
  await stopNode(page);
  await other.goto("/");
  const found = other.getByRole("region", { name: "Brought back from your storage server" });
  await expect(found).toBeVisible({ timeout: 90_000 });
  await expect(found).toContainText(/1 channel holding (19\d|200),\d{3} sats/);
  await expect(found).toContainText("1 contact");
  await expect(
    other.getByRole("list", { name: "Contacts" }).getByRole("button", { name: /Ada/ }),
  ).toBeVisible();
  await found.getByRole("button", { name: "Got it" }).click();
  await expect(found).toBeHidden();
  await other.context().close();
});
