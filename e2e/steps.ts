/** Steps several specs take the same way, each as the owner does it on the screens. */
import type { Browser, Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { expect, fundOnchain, syncNow } from "./fixtures";

/** Opens Receive from home and asks for `sats` over lightning only. */
export const askLightningReceive = async (page: Page, sats: number) => {
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByLabel("Amount (sats, optional)").fill(String(sats));
  await page.getByRole("radio", { name: "Lightning only" }).check();
};

/**
 * Once the node has started (within `startMs`), receives 50,000 sats over lightning from the world's node
 * (home is open; the LSP opens a channel just in time), and goes back home.
 */
export const receiveOverLightning = async (page: Page, esplora: string, startMs: number) => {
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: startMs });
  await receiveFromWorld(page, esplora, 50_000);
};

/**
 * From home, asks for `sats` over lightning only, has the world's node pay the invoice the screen shows,
 * waits until the screen says it arrived, and goes back home.
 */
export const receiveFromWorld = async (page: Page, esplora: string, sats: number) => {
  await askLightningReceive(page, sats);
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  const paid = await postJson(esplora, "/ln/pay", { bolt11: invoice });
  expect(paid.status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("link", { name: "Home" }).last().click();
};

/** From home, opens Send to `payee` and types `sats` as the amount; what Send shows next is the caller's to wait for. */
export const openSend = async (page: Page, payee: string, sats: number) => {
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(payee);
  await page.getByLabel("Amount (sats)").fill(String(sats));
};

/**
 * From home, pays an invoice of `sats` the world's node made (for `description`) from Send, the amount shown
 * before confirming; waits up to `timeoutMs` for it to be sent and goes back home.
 */
export const payWorld = async (
  page: Page,
  esplora: string,
  sats: number,
  description: string,
  timeoutMs = 60_000,
) => {
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: sats, description });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText(sats.toLocaleString("en-US"));
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent).toBeVisible({ timeout: timeoutMs });
  await sent.getByRole("link", { name: "Home" }).click();
};

/**
 * On a browser with no wallet, restores `words` from the welcome screen's import, confirming the restore;
 * what the restore shows next is the caller's to wait for.
 */
export const restoreWords = async (page: Page, words: readonly string[]) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Import existing" }).click();
  for (let i = 0; i < 12; i++) await page.getByLabel(`Word ${i + 1}`, { exact: true }).fill(words[i]!);
  await page.getByRole("button", { name: "Restore" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
};

/** Joins the mint at `mint` (the world's, "Local World Mint") from the federations page; answers its card. */
export const joinWorldMint = async (page: Page, mint: string) => {
  await page.goto("/settings/federations");
  await page.getByLabel("Federation invite code or mint URL").fill(mint);
  await page.getByRole("button", { name: "Add" }).click();
  const card = page.getByRole("article", { name: "Local World Mint" });
  await expect(card).toBeVisible({ timeout: 30_000 });
  return card;
};

/** The wallet's 12 seed words, as the backup screen shows them. */
export const seedWords = async (page: Page): Promise<string[]> => {
  await page.goto("/settings/backup");
  await page.getByRole("button", { name: "Show the 12 words" }).click();
  const seed = page.getByRole("list", { name: "Seed words" }).getByRole("listitem");
  await expect(seed).toHaveCount(12);
  return (await seed.allTextContents()).map((w) => w.trim());
};

/** A page in a new browser (nothing of this one's wallet in it), on this run's world. */
export const freshBrowserPage = async (browser: Browser, esplora: string): Promise<Page> => {
  const fresh = await browser.newContext();
  await fresh.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), esplora);
  return fresh.newPage();
};

/**
 * Swaps 200,000 of the on-chain sats to lightning (a channel to the LSP), mining until home shows the
 * channel's balance, then six blocks more so it is usable.
 */
export const openChannelFromOnchain = async (page: Page, esplora: string) => {
  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await page.getByLabel("Amount (sats)").fill("200000");
  await expect(page.getByText(/Network fee: about \d+ sats/)).toBeVisible();
  await page.getByRole("button", { name: "Open channel" }).click();
  await page.getByRole("dialog", { name: "Channel opening" }).getByRole("button", { name: "Home" }).click();
  await confirmChannel(page, esplora, /(19\d|200),\d{3} sats/);
};

/** Funds the wallet with 300,000 sats on-chain, then swaps 200,000 of them into a channel with the LSP. */
export const fundAndOpenChannel = async (page: Page, esplora: string) => {
  await fundOnchain(page, esplora, 300_000);
  await openChannelFromOnchain(page, esplora);
};

/**
 * Mines a block at a time until the funding transaction (broadcast by the node moments ago) is in one and
 * home shows the channel's `balance`, then six more, and waits until the channels page no longer lists it
 * as opening (the app shows it opening until its funding is deep enough): a payment may be made from then
 * on, whether its peer is connected yet or the payment waits for it. Ends on home.
 */
export const confirmChannel = async (page: Page, esplora: string, balance: RegExp) => {
  await expect(async () => {
    await postJson(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(page.getByTestId("lightning-balance")).toHaveText(balance, { timeout: 2000 });
  }).toPass({ timeout: 90_000 });
  await postJson(esplora, "/mine", { blocks: 6 });
  await syncNow(page);
  await channelListedAs(page, /^(Online|Connecting…) \(1\)$/);
};

/**
 * Goes from the app's navigation to the channels page and waits until it lists the wallet's one channel
 * under `state` (`Online (1)`, say), then goes home: within the app, without a reload.
 */
export const channelListedAs = async (page: Page, state: string | RegExp) => {
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Lightning channels" }).click();
  await expect(page.getByText(state)).toBeVisible({ timeout: 90_000 });
  await page.getByRole("link", { name: "Home" }).first().click();
};
