import type { BrowserContext, Page } from "@playwright/test";
import { postJson } from "../harness/http";
import type { Harness } from "../harness/world";

/**
 * A new wallet in a fresh page of `context`, on the world's chain: created from the welcome screen, the
 * nostr profile step skipped (as in the end-to-end tests), home showing its balance.
 */
export const newWalletPage = async (
  context: BrowserContext,
  base: string,
  esploraUrl: string,
): Promise<Page> => {
  await context.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), esploraUrl);
  const page = await context.newPage();
  await page.goto(`${base}/setup`);
  await page.getByRole("button", { name: "New wallet" }).click();
  await page.waitForURL(/\/(newprofile)?$/);
  if (page.url().endsWith("/newprofile")) await page.getByRole("button", { name: "Skip" }).click();
  await page.getByTestId("onchain-balance").waitFor();
  // Home is drawn before its new wallet is made (inert until then): a load sooner finds no wallet.
  await page.locator("main.home:not([inert])").waitFor({ timeout: 120_000 });
  return page;
};

/**
 * Funds the wallet on `page` with `fund` sats from the faucet, syncs until home shows them, then opens a
 * channel of `channel` sats from the swap screen and waits for its dialog.
 */
export const fundAndOpenChannel = async (
  page: Page,
  base: string,
  world: Harness,
  {
    fund,
    channel,
    syncs,
    syncWaitMs,
    openWaitMs,
  }: {
    fund: number;
    channel: number;
    syncs: number;
    syncWaitMs: number;
    openWaitMs?: number;
  },
): Promise<void> => {
  await page.goto(`${base}/receive`);
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  await postJson(world.esploraUrl, "/faucet", { address, sats: fund });
  await world.mine(1);
  await page.goto(`${base}/`);
  const shownText = fund.toLocaleString("en-US");
  for (let i = 0; i < syncs; i++) {
    await page.getByRole("button", { name: "Sync now" }).click();
    const shown = await page
      .getByTestId("onchain-balance")
      .filter({ hasText: shownText })
      .waitFor({ timeout: syncWaitMs })
      .then(() => true)
      .catch(() => false);
    if (shown) break;
  }
  await page.goto(`${base}/swap`);
  await page.getByLabel("Amount (sats)").fill(String(channel));
  await page.getByRole("button", { name: "Open channel" }).click();
  await page
    .getByRole("dialog", { name: "Channel opening" })
    .waitFor(openWaitMs ? { timeout: openWaitMs } : {});
};
