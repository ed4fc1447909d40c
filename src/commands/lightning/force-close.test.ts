/**
 * A force close always does something (issue 42 item 2): from each state in which the channels page offers
 * it, the wallet either broadcasts or says why it cannot, in the catalogue's words, at once. Here the states
 * where the node does not run: a storage server that refuses every write (the world's lying mode), another
 * device running the wallet, and safe mode.
 */
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { type Harness, startHarness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import { forceCloseBlocked } from "./channels";
import { fundFromWorld, ok, openWorldHost, worldLspConfig, worldStorageConfig } from "../host/host.testing";
import { until } from "../../../harness/until";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  await h.storage.db();
}, 180_000);

stopAfterAll(() => [h]);

const open = async (name: string, storage: string, words?: string[]) => {
  let views: Partial<AllViews> = {};
  const host = await openWorldHost(new WalletDb(name), worldStorageConfig(h, storage), (v) => {
    views = { ...views, ...v };
  });
  if (words) ok(await host.run({ _tag: "RestoreWallet", words }));
  await host.whenLightning();
  return { host, views: () => views };
};

const forceClose = { _tag: "CloseChannel", channelId: "00".repeat(32), force: true } as const;

describe("a force close where the node does not run", () => {
  it("says the storage server refuses writes, and that the node could not start", async () => {
    await postJson(h.esploraUrl, "/hostile", { service: "storage", scope: "fc", mode: "refuse-writes" });
    const phone = await open(
      "fc-refused",
      `${h.esploraUrl}/hostile/fc/storage`,
      generateMnemonic(wordlist).split(" "),
    );
    expect(phone.views().live?.lightning).toBe("failed");
    expect(phone.views().live?.lightning_error).toMatch(/refuses every write/);
    expect(phone.views().live?.lock_remaining_secs ?? null).toBeNull();
    expect(await phone.host.run(forceClose)).toMatchObject({
      ok: false,
      error: { _tag: "WalletState", key: "errors.force_close_stopped" },
    });
    await phone.host.stop();
    await postJson(h.esploraUrl, "/hostile", { service: "storage", scope: "fc", mode: null });
  }, 240_000);

  it("sends the owner to the device that runs the wallet", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const phone = await open("fc-phone", h.storageUrl, words);
    expect(phone.views().live?.lightning).toBe("ready");
    const laptop = await open("fc-laptop", h.storageUrl, words);
    expect(laptop.views().live?.lightning).toBe("failed");
    expect(await laptop.host.run(forceClose)).toMatchObject({
      ok: false,
      error: { _tag: "WalletState", key: "errors.force_close_elsewhere" },
    });
    await laptop.host.stop();
    await phone.host.stop();
  }, 240_000);

  it("asks for safe mode to be turned off", async () => {
    const tablet = await open("fc-tablet", h.storageUrl, generateMnemonic(wordlist).split(" "));
    ok(await tablet.host.run({ _tag: "SetSafeMode", enabled: true }));
    await tablet.host.stop();
    // Opened again in safe mode: the node is kept off.
    const again = await open("fc-tablet", h.storageUrl);
    expect(again.views().live?.lightning).toBe("safe_mode");
    expect(await again.host.run(forceClose)).toMatchObject({
      ok: false,
      error: { _tag: "WalletState", key: "errors.force_close_safe_mode" },
    });
    await again.host.stop();
  }, 240_000);
});

describe("a force close where the node runs", () => {
  it("broadcasts the latest state: the funding is spent on the chain and the activity shows the close", async () => {
    let views: Partial<AllViews> = {};
    const host = await openWorldHost(new WalletDb("fc-running"), worldLspConfig(h), (v) => {
      views = { ...views, ...v };
    });
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      await host.whenLightning();
      await fundFromWorld(h, host, 300_000n);
      ok(await host.run({ _tag: "OpenChannel", amountSats: 200_000n }));
      await until("the channel funded", () => views.channels?.some((c) => c.outpoint) ?? false, 120_000);
      const channel = views.channels?.find((c) => c.outpoint);
      const [txid, vout] = (channel?.outpoint ?? ":").split(":");
      await h.waitForTx(txid ?? "", 60_000);
      await h.mine(6);
      await h.lightning.node.sync();
      ok(await host.run({ _tag: "SyncOnchain" }));
      await until("the channel usable", () => views.channels?.some((c) => c.is_usable) ?? false, 120_000);
      ok(await host.run({ _tag: "CloseChannel", channelId: channel?.channel_id ?? "", force: true }));
      const spent = async () => {
        const r = await fetch(`${h.esploraUrl}/tx/${txid}/outspend/${vout}`);
        return ((await r.json()) as { spent?: boolean }).spent === true;
      };
      await until("the latest state on the chain", spent, 60_000, 250);
      await until(
        "the close in the activity",
        () => views.activity?.items.some((i) => i.kind === "ChannelClose") ?? false,
        60_000,
      );
    } finally {
      await host.stop();
    }
  }, 360_000);

  it("is held back only while the storage server has not saved the channels, and says so", () => {
    const running = { lightning: "ready", storage_waiting: true, storage_waiting_for: ["channels"] } as const;
    expect(forceCloseBlocked(running as never, true)?.key).toBe("errors.force_close_waits_storage");
    expect(forceCloseBlocked({ ...running, storage_waiting_for: ["log"] } as never, true)).toBeNull();
  });
});
