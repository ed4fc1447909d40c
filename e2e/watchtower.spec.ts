/**
 * A channel partner that publishes an old state of the channel loses all of it, whether the wallet's tab is
 * open (its own node punishes) or closed (the world's watchtower, given an appointment after each payment,
 * does): home and the activity say so in plain words, and the channel's money comes home on-chain.
 */
import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, syncNow, test } from "./fixtures";
import { fundAndOpenChannel, payWorld, receiveFromWorld } from "./steps";

// These tests mine blocks on the run's one regtest chain and make the world's LSP cheat, so they take turns.
test.describe.configure({ mode: "serial" });

// Each opens a channel (mining until it is usable), pays both ways, and mines until a penalty is swept home:
// minutes of a lightning node's work on two busy cores.
test.describe.configure({ timeout: 480_000 });

const CHANNEL_SATS = 200_000;

/** What the world answers at `path` (its Esplora API, its node's channels). */
const getJson = async (esplora: string, path: string): Promise<unknown> => {
  const r = await fetch(`${esplora}${path}`);
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
};

/** The sats a balance on home shows ("123,456 sats"). */
const satsOf = async (page: Page, testId: string): Promise<number> =>
  Number(((await page.getByTestId(testId).textContent()) ?? "").replace(/\D/g, ""));

/**
 * Pays 30,000 sats to the world's node, then receives 10,000 sats from it: the state in which the LSP held
 * 30,000 sats is revoked, one worth cheating with. Ends on home.
 */
const payBothWays = async (page: Page, esplora: string) => {
  await payWorld(page, esplora, 30_000, "rent");
  await receiveFromWorld(page, esplora, 10_000);
};

/** The world's id of the wallet's channel, found by its funding transaction (the channels page links it). */
const channelIdOf = async (page: Page, esplora: string): Promise<string> => {
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Lightning channels" }).click();
  const href = await page.getByRole("link", { name: "View in explorer" }).getAttribute("href");
  const funding = href?.match(/[0-9a-f]{64}$/)?.[0];
  expect(funding).toBeTruthy();
  const channels = (await getJson(esplora, "/ln/channels")) as { channelId: string; outpoint?: string }[];
  const channel = channels.find((c) => c.outpoint?.startsWith(`${funding}:`));
  expect(channel).toBeTruthy();
  await page.getByRole("link", { name: "Home" }).first().click();
  return channel!.channelId;
};

/** Mines a block at a time until home tells of the penalty swept home, and checks the activity says it too. */
const penaltySeen = async (page: Page, esplora: string): Promise<number> => {
  const told = page.getByText(
    /^Your channel partner published an old state of your channel; the wallet took the whole channel: \+[\d,]+ sats$/,
  );
  await expect(async () => {
    await postJson(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(told).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 240_000 });
  await expect(page.getByText("Your channel partner cheated")).toBeVisible();
  const amount = Number(((await told.textContent()) ?? "").match(/\+([\d,]+) sats/)![1]!.replace(/,/g, ""));
  // The whole channel, less what the commitment, the justice transaction and the sweeps paid in fees.
  expect(amount).toBeGreaterThan(CHANNEL_SATS - 5_000);
  expect(amount).toBeLessThanOrEqual(CHANNEL_SATS);

  const row = page.getByRole("button", { name: /Old channel state punished/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText(amount.toLocaleString("en-US"));
  await row.click();
  const details = page.getByRole("dialog");
  await expect(details).toContainText("Your channel partner cheated");
  await expect(details).toContainText(
    `the wallet took the whole channel: +${amount.toLocaleString("en-US")} sats`,
  );
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);
  return amount;
};

/**
 * A new wallet with a channel of its own, paid over both ways, back on home: the on-chain balance then and
 * the world's id of the channel.
 */
const channelWorthCheating = async (page: Page, esplora: string) => {
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);
  await payBothWays(page, esplora);
  const onchainBefore = await satsOf(page, "onchain-balance");
  const channel = await channelIdOf(page, esplora);
  return { onchainBefore, channel };
};

/** The world's LSP publishes a revoked state of `channel`, one in which it held the 30,000 sats it was paid. */
const cheat = async (esplora: string, channel: string): Promise<{ txid: string }> => {
  const cheated = await postJson(esplora, "/ln/cheat", { channel_id: channel });
  expect(Number(cheated.stolen_sats)).toBeGreaterThanOrEqual(30_000);
  return cheated;
};

/** After the penalty of `amount`: counted once in the on-chain balance, nothing left on lightning. */
const balancesAfter = async (page: Page, onchainBefore: number, amount: number) => {
  await expect(page.getByTestId("onchain-balance")).toHaveText(
    `${(onchainBefore + amount).toLocaleString("en-US")} sats`,
  );
  await expect(page.getByTestId("lightning-balance")).toHaveText("0 sats");
};

test("the LSP publishes an old state while the tab is open: the wallet takes the whole channel", async ({
  page,
  esplora,
}) => {
  const { onchainBefore, channel } = await channelWorthCheating(page, esplora);

  await cheat(esplora, channel);
  const amount = await penaltySeen(page, esplora);

  // Confirmed on-chain, counted once: the on-chain balance gained what home says came home.
  await balancesAfter(page, onchainBefore, amount);
});

test("the LSP publishes an old state while the tab is closed: the watchtower punishes, the reopened wallet tells", async ({
  page,
  context,
  esplora,
}) => {
  const { onchainBefore, channel } = await channelWorthCheating(page, esplora);

  // The owner closes the tab: nothing of the wallet runs now.
  await page.close();
  const cheated = await cheat(esplora, channel);
  await postJson(esplora, "/mine", { blocks: 1 });
  // The world's watchtower sees the revoked commitment in the block and spends its output with the justice
  // transaction the wallet signed before it closed.
  await expect(async () => {
    const spends = (await getJson(esplora, `/tx/${cheated.txid}/outspends`)) as { spent: boolean }[];
    expect(spends.some((s) => s.spent)).toBe(true);
  }).toPass({ timeout: 60_000 });
  await postJson(esplora, "/mine", { blocks: 6 });

  // The owner opens the wallet again.
  const reopened = await context.newPage();
  await reopened.goto("/");
  const amount = await penaltySeen(reopened, esplora);
  await balancesAfter(reopened, onchainBefore, amount);
});
