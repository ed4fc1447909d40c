/**
 * A channel partner that publishes an old state of the channel loses all of it, whether the wallet's tab is
 * open (its own node punishes) or closed (the world's watchtower, given an appointment after each payment,
 * does): home and the activity say so in plain words, and the channel's money comes home on-chain.
 */
import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, syncNow, test } from "./fixtures";
import { askLightningReceive, fundAndOpenChannel } from "./steps";

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
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: 30_000, description: "rent" });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText("30,000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("dialog", { name: "Sent" }).getByRole("link", { name: "Home" }).click();

  await askLightningReceive(page, 10_000);
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  expect((await postJson(esplora, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("link", { name: "Home" }).last().click();
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

test("the LSP publishes an old state while the tab is open: the wallet takes the whole channel", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);
  await payBothWays(page, esplora);
  const onchainBefore = await satsOf(page, "onchain-balance");
  const channel = await channelIdOf(page, esplora);

  const cheat = await postJson(esplora, "/ln/cheat", { channel_id: channel });
  expect(Number(cheat.stolen_sats)).toBeGreaterThanOrEqual(30_000);
  const amount = await penaltySeen(page, esplora);

  // Confirmed on-chain, counted once: the on-chain balance gained what home says came home.
  await expect(page.getByTestId("onchain-balance")).toHaveText(
    `${(onchainBefore + amount).toLocaleString("en-US")} sats`,
  );
  await expect(page.getByTestId("lightning-balance")).toHaveText("0 sats");
});

test("the LSP publishes an old state while the tab is closed: the watchtower punishes, the reopened wallet tells", async ({
  page,
  context,
  esplora,
}) => {
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);
  await payBothWays(page, esplora);
  const onchainBefore = await satsOf(page, "onchain-balance");
  const channel = await channelIdOf(page, esplora);

  // The owner closes the tab: nothing of the wallet runs now.
  await page.close();
  const cheat = await postJson(esplora, "/ln/cheat", { channel_id: channel });
  expect(Number(cheat.stolen_sats)).toBeGreaterThanOrEqual(30_000);
  await postJson(esplora, "/mine", { blocks: 1 });
  // The world's watchtower sees the revoked commitment in the block and spends its output with the justice
  // transaction the wallet signed before it closed.
  await expect(async () => {
    const spends = (await getJson(esplora, `/tx/${cheat.txid}/outspends`)) as { spent: boolean }[];
    expect(spends.some((s) => s.spent)).toBe(true);
  }).toPass({ timeout: 60_000 });
  await postJson(esplora, "/mine", { blocks: 6 });

  // The owner opens the wallet again.
  const reopened = await context.newPage();
  await reopened.goto("/");
  const amount = await penaltySeen(reopened, esplora);
  await expect(reopened.getByTestId("onchain-balance")).toHaveText(
    `${(onchainBefore + amount).toLocaleString("en-US")} sats`,
  );
  await expect(reopened.getByTestId("lightning-balance")).toHaveText("0 sats");
});
