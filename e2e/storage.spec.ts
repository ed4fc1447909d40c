/**
 * One wallet in two browsers (issue 32): the second, restoring the 12 words while the first runs, is told
 * the wallet runs elsewhere with the device lock's countdown; once the first tab is closed (its page gives
 * the lock up as it goes, so no one waits for it to run out), the second takes over
 * on the storage server's state: the same channel reconnects (the LSP still has it, nothing force closed),
 * it pays and is paid, its history and contacts come back, and home says what came back.
 */
import type { Page } from "@playwright/test";
import { DEVICE_LOCK_NAME, DEVICE_LOCK_TTL_SECS } from "../src/engine/storage/device-lock";
import { openLockStore, type SealedStore, storageKeysOfWords } from "../src/engine/storage";
import { createWallet, expect, test } from "./fixtures";
import {
  freshBrowserPage,
  fundAndOpenChannel,
  payWorld,
  receiveFromWorld,
  restoreWords,
  seedWords,
} from "./steps";

interface LspChannel {
  readonly channelId: string;
  readonly peer: string;
  readonly isUsable: boolean;
}

/** The world's LSP's channels with `peer`. */
const lspChannelsWith = async (esplora: string, peer: string): Promise<LspChannel[]> =>
  ((await (await fetch(`${esplora}/ln/channels`)).json()) as LspChannel[]).filter((c) => c.peer === peer);

/** Who holds the wallet's device lock on the storage server, and when they last wrote it (their clock). */
const lockHolder = async (store: SealedStore): Promise<{ device: string; at: number } | null> => {
  const lock = await store.get(DEVICE_LOCK_NAME);
  return lock ? (JSON.parse(new TextDecoder().decode(lock.value)) as { device: string; at: number }) : null;
};

/** The wallet's node id, as its admin page shows it once the node runs. */
const nodeIdOf = async (page: Page): Promise<string> => {
  await page.goto("/settings/admin");
  await expect(page.getByText("Status: running")).toBeVisible({ timeout: 90_000 });
  return (
    (await page.getByRole("region", { name: "Lightning node" }).locator("code").getAttribute("title")) ?? ""
  );
};

test("a second browser on the same words waits while the first runs, then restores its channel and contacts from storage", async ({
  page,
  esplora,
  browser,
}) => {
  test.setTimeout(480_000);
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);
  await page.getByRole("list", { name: "Contacts" }).getByRole("button", { name: "New" }).click();
  const create = page.getByRole("dialog", { name: "New contact" });
  await create.getByLabel("Name").fill("Ada");
  await create.getByLabel("Lightning address").fill("ada@example.com");
  await create.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("dialog", { name: "Ada" })).toBeVisible();
  await page.keyboard.press("Escape");
  // Paid at once, within the app, as a person pays: Send waits for the channel if it must, and says so.
  await payWorld(page, esplora, 10_000, "first browser's coffee", 90_000);
  const nodeId = await nodeIdOf(page);
  // The admin page's load started the node again: the LSP sees the channel usable once it reconnected.
  await expect
    .poll(async () => (await lspChannelsWith(esplora, nodeId)).map((c) => c.isUsable), { timeout: 90_000 })
    .toEqual([true]);
  const [channel] = await lspChannelsWith(esplora, nodeId);
  const words = await seedWords(page);

  const other = await freshBrowserPage(browser, esplora);
  await restoreWords(other, words);
  // The first browser holds the device lock: the second counts down instead of starting a second node.
  await expect(other.getByRole("heading", { name: "Running on another device" })).toBeVisible({
    timeout: 90_000,
  });
  // Said once, with the way out and a word on the money; no engine message in English.
  await expect(other.getByText(/trying again in \d+ seconds/)).toBeVisible();
  await expect(other.getByText(/^Your funds are safe\./)).toBeVisible();
  await expect(other.getByRole("button", { name: "Try again now" })).toBeVisible();
  await expect(other.getByText("Mutiny is already running on another device.")).toHaveCount(0);

  // The first browser's tab is closed with its node running: the page gives the device lock up as it goes
  // (the worker is gone with it), so the second, loaded again, takes over at once, well before the first
  // one's lock would have run out.
  const store = openLockStore({
    url: `${esplora}/storage`,
    keys: storageKeysOfWords(words.join(" ")),
    network: "regtest",
  });
  const first = await lockHolder(store);
  expect(first).not.toBeNull();
  await Promise.all([page.waitForEvent("close"), page.close({ runBeforeUnload: true })]);
  await expect.poll(() => lockHolder(store), { timeout: 30_000 }).toBeNull();
  await other.goto("/");
  const found = other.getByRole("region", { name: "Brought back from your storage server" });
  await expect(found).toBeVisible({ timeout: 90_000 });
  await expect(found).toContainText(/1 channel holding 1[89]\d,\d{3} sats/);
  const second = await lockHolder(store);
  expect(second?.device).not.toBe(first?.device);
  expect(second!.at).toBeLessThan(first!.at + DEVICE_LOCK_TTL_SECS * 1000);
  await expect(found).toContainText("1 contact");
  await expect(
    other.getByRole("list", { name: "Contacts" }).getByRole("button", { name: /Ada/ }),
  ).toBeVisible();
  // The card stays until the owner closes it, across a reload; then it is gone for good.
  await other.reload();
  await expect(found).toContainText(/1 channel holding 1[89]\d,\d{3} sats/, { timeout: 90_000 });
  await found.getByRole("button", { name: "Got it" }).click();
  await expect(found).toBeHidden();
  await other.reload();
  await expect(other.getByRole("tab", { name: "Just me" })).toBeVisible({ timeout: 90_000 });
  await expect(found).toHaveCount(0);
  // The first browser's payment is in the history.
  await expect(other.getByRole("button", { name: /10,000 sats Lightning/ })).toBeVisible();

  // It pays at once, as a person would (Send waits for the channel and says so), and is paid.
  await payWorld(other, esplora, 20_000, "second browser's lunch", 90_000);
  await receiveFromWorld(other, esplora, 5_000);
  await expect(other.getByRole("button", { name: /20,000 sats Lightning/ })).toBeVisible();
  await expect(other.getByRole("button", { name: /5,000 sats Lightning/ })).toBeVisible();
  // The same node, on the same channel: no other channel with the LSP (no force close, no second open),
  // usable again once the admin page's load has reconnected it.
  expect(await nodeIdOf(other)).toBe(nodeId);
  await expect
    .poll(async () => (await lspChannelsWith(esplora, nodeId)).map((c) => [c.channelId, c.isUsable]), {
      timeout: 90_000,
    })
    .toEqual([[channel!.channelId, true]]);
  await other.context().close();
});
