import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, fundOnchain, stopNode, test } from "./fixtures";
import { freshBrowserPage, seedWords } from "./steps";

// These tests mine blocks on the run's one regtest chain, so they take turns.
// Each mines, syncs and waits for confirmations (a restore scans the chain) on two busy cores.
test.describe.configure({ mode: "serial", timeout: 180_000 });

/** Shows a receive address on the receive screen and answers it. */
const receiveAddress = async (page: Page) => {
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  expect(address).toMatch(/^bcrt1q/);
  return address;
};

test("receive on-chain: the faucet pays the address, pending then confirmed after mining", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  const address = await receiveAddress(page);

  await postJson(esplora, "/faucet", { address, sats: 150_000 });
  await page.goto("/");
  // The wallet syncs when asked; the activity list and pending badge follow the chain.
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("pending-badge")).toContainText("150,000");
  await expect(page.getByRole("button", { name: /Received.*150,000/ })).toBeVisible();
  // Its details, open while it confirms, follow it.
  await page.getByRole("button", { name: /Received.*150,000/ }).click();
  const status = page.getByRole("dialog").getByTestId("activity-status");
  await expect(status).toHaveText("Unconfirmed");

  await postJson(esplora, "/mine", { blocks: 1 });
  // The wallet's own background sync, without waiting its minute: the dialog covers the button, so the
  // click goes to it directly.
  await page.getByRole("button", { name: "Sync now", includeHidden: true }).dispatchEvent("click");
  await expect(status).toHaveText("Confirmed");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("pending-badge")).toHaveCount(0);
  await expect(page.getByTestId("onchain-balance")).toHaveText("150,000 sats");

  // On a phone, scrolled to the end, the last activity row is clear of the bottom action bar.
  await page.setViewportSize({ width: 390, height: 560 });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const bar = await page.getByRole("navigation", { name: "Actions" }).boundingBox();
  const last = await page.locator(".activity-row").last().boundingBox();
  expect(bar && last && last.y + last.height).toBeLessThanOrEqual(bar?.y ?? 0);
});

test("send to an address: the fee is shown first, the payment confirms and shows in activity with its fee", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  const address = await receiveAddress(page);
  await postJson(esplora, "/faucet", { address, sats: 200_000 });
  await postJson(esplora, "/mine", { blocks: 1 });
  await page.goto("/");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("onchain-balance")).toHaveText("200,000 sats");

  await page.getByRole("link", { name: "Send" }).first().click();
  const payee = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(payee);
  await page.getByLabel("Amount (sats)").fill("300000");
  await expect(page.getByRole("alert")).toContainText("enough balance");
  await page.getByLabel("Amount (sats)").fill("50000");
  await expect(page.getByTestId("send-fee")).toContainText("50,000 sats to the address");
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible();
  await page.getByRole("dialog").getByRole("link", { name: "Home" }).click();

  const sent = page.getByRole("button", { name: /Sent.*50,000/ });
  await expect(sent).toContainText("Pending");
  await postJson(esplora, "/mine", { blocks: 1 });
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(sent).not.toContainText("Pending");
  await sent.click();
  const details = page.getByRole("dialog");
  await expect(details).toContainText("Confirmed");
  await expect(details).toContainText(/Fee\s*\d[\d,]* sats/);
});

test("restoring from the 12 words in a fresh browser profile finds the on-chain funds", async ({
  page,
  esplora,
  browser,
}) => {
  await createWallet(page);
  const address = await receiveAddress(page);
  await postJson(esplora, "/faucet", { address, sats: 120_000 });
  await postJson(esplora, "/mine", { blocks: 1 });
  const words = await seedWords(page);
  // One device at a time: the first stops its node, which gives the storage server's device lock up.
  await stopNode(page);

  const other = await freshBrowserPage(browser, esplora);
  await other.goto("/");
  await other.getByRole("link", { name: "Import existing" }).click();
  await other.getByLabel("Word 1", { exact: true }).fill("notaword");
  for (let i = 1; i < 12; i++) await other.getByLabel(`Word ${i + 1}`, { exact: true }).fill(words[i]!);
  await other.getByRole("button", { name: "Restore" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
  await expect(other.getByRole("alert")).toContainText("Word 1 is not in the word list.");
  await other.getByLabel("Word 1", { exact: true }).fill(words[0]!);
  await other.getByRole("button", { name: "Restore" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
  await expect(other.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(other.getByTestId("onchain-balance")).toHaveText("120,000 sats");
  // A restored wallet counts as backed up.
  await expect(other.getByRole("link", { name: /not backed up/ })).toHaveCount(0);
  await other.context().close();
});

test("paying the same address the same amount again within minutes asks once more: nothing leaves without it", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  await createWallet(page);
  await fundOnchain(page, esplora, 200_000);
  const payee = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
  const AMOUNT = 31_337;
  /** How many transactions on the chain (mempool included) pay the payee exactly AMOUNT. */
  const paid = async () => {
    const txs = (await (await fetch(`${esplora}/address/${payee}/txs`)).json()) as {
      vout: { scriptpubkey_address?: string; value: number }[];
    }[];
    return txs.filter((t) => t.vout.some((o) => o.scriptpubkey_address === payee && o.value === AMOUNT))
      .length;
  };
  const fillSend = async () => {
    await page.getByRole("link", { name: "Send" }).first().click();
    await page.getByLabel("Address, invoice, lightning address or LNURL").fill(payee);
    await page.getByLabel("Amount (sats)").fill(String(AMOUNT));
    await expect(page.getByTestId("send-fee")).toContainText("31,337 sats to the address");
  };

  await fillSend();
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible();
  // Closing the result with × takes the owner home: no filled form is left behind.
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(paid).toBe(1);

  // The same address and amount again: the worker asks once more and nothing leaves.
  await fillSend();
  await page.getByRole("button", { name: "Confirm send" }).click();
  const again = page.getByRole("dialog", { name: "Pay again?" });
  await expect(again).toContainText("31,337 sats");
  await again.getByRole("button", { name: "Cancel" }).click();
  await expect(again).toBeHidden();
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(again).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(again).toBeHidden();
  expect(await paid()).toBe(1);
  await expect(page.getByRole("dialog", { name: "Sent" })).toHaveCount(0);

  // Only the new, explicit confirmation sends it.
  await page.getByRole("button", { name: "Confirm send" }).click();
  await again.getByRole("button", { name: "Yes, send it again" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible();
  await expect.poll(paid).toBe(2);

  // Nothing on lightning but coins on-chain: an invoice offers a swap, not only a refusal.
  await page.getByRole("dialog").getByRole("link", { name: "Home" }).click();
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: 20_000, description: "tea" });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByRole("alert")).toContainText("enough balance");
  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await expect(page).toHaveURL(/\/swap$/);
  await expect(page.getByText("A channel needs at least 100,000 sats.")).toBeVisible();
});
