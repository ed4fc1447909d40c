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
  await askLightningReceive(page, 50_000);
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  const paid = await postJson(esplora, "/ln/pay", { bolt11: invoice });
  expect(paid.status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("link", { name: "Home" }).last().click();
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
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Lightning channels" }).click();
  await expect(page.getByText(/^(Online|Connecting…) \(1\)$/)).toBeVisible({ timeout: 90_000 });
  await page.getByRole("link", { name: "Home" }).first().click();
};
