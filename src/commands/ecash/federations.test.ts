/**
 * Federations through the wallet's host against the local world's mint and relay: receiving into ecash (the
 * mint's invoice, paid by the world, lands as ecash), the NIP-87 recommendation read back from the relay by
 * nostr-tools' SimplePool (not the wallet's client), the mint's info read again after it announced an end
 * date, and a state file imported back merging the proofs (the ones spent since dropped, NUT-07).
 */
import "fake-indexeddb/auto";
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { verifyEvent } from "nostr-tools/pure";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import type { WalletConfig } from "../../config";
import { decodeState, stateKey, sumProofs } from "../../engine/ecash/cashu/state";
import { ecashEngine } from "../../engine/ecash/engine";
import type { Platform } from "../../engine/engine";
import { nostrEngine } from "../../engine/nostr/engine";
import { pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import type { WalletHost } from "../host/host";
import { chainOnlyConfig, nodePlatform, ok, openWorldHost } from "../host/host.testing";
import { stopAfterAll } from "../../../harness/stop-after-all";

setPoolSocket(WebSocket);

const LONG = 240_000;
const platform: Platform = {
  ...nodePlatform,
};

let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
let mint = "";
let config: WalletConfig;

const federation = () => views.federations?.find((f) => f.federation_id === mint);

/** The events of `kinds` by `pubkey` on the world's relay, as an outside client reads them. */
const onRelay = async (kinds: number[], pubkey: string) => {
  const pool = new SimplePool();
  try {
    const events = await pool.querySync([h.nostr.relayUrl], { kinds, authors: [pubkey] });
    for (const e of events) expect(verifyEvent(e)).toBe(true);
    return events;
  } finally {
    pool.destroy();
  }
};

const held = async () => sumProofs(decodeState(await host.secrets.store.get(stateKey(mint))).proofs);

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  mint = h.cashu.mintUrl;
  config = {
    ...chainOnlyConfig(h.esploraUrl),
    nostr: { relays: [h.nostr.relayUrl], primal: h.nostr.cacheUrl, blossom: h.nostr.blossomUrl },
  };
  const onViews = (v: Partial<AllViews>) => {
    views = { ...views, ...v };
  };
  host = await openWorldHost(new WalletDb("federations-world"), config, onViews, {
    list: [ecashEngine, nostrEngine],
    platform,
  });
  ok(await host.run({ _tag: "CreateWallet" }));
  ok(await host.run({ _tag: "JoinFederation", code: mint }));
}, LONG);

stopAfterAll(() => [host, h]);

describe("federations against the world's mint and relay", () => {
  it(
    "receives into ecash: the mint's invoice, paid over lightning, lands as ecash held by the mint",
    async () => {
      // No amount: the catalogue's message, and no invoice asked of the mint.
      expect(await host.run({ _tag: "ReceiveEcash", federationId: mint, amountSats: 0n })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", key: "receive.ecash_amount_required" },
      });
      const q = ok<{ bolt11: string }>(
        await host.run({ _tag: "ReceiveEcash", federationId: mint, amountSats: 10_000n }),
      );
      expect(
        ok<{ receivedSats: bigint }>(await host.run({ _tag: "CheckEcash", federationId: mint })),
      ).toEqual({
        receivedSats: 0n,
      });
      await postJson(h.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
      let received = 0n;
      await until(
        "the ecash minted",
        async () => {
          received += ok<{ receivedSats: bigint }>(
            await host.run({ _tag: "CheckEcash", federationId: mint }),
          ).receivedSats;
          return received > 0n;
        },
        60_000,
        500,
      );
      expect(received).toBe(10_000n);
      expect(federation()?.balance).toBe(10_000n);
      expect(views.balance?.federation).toBe(10_000n);
      expect(await held()).toBe(10_000n);
    },
    LONG,
  );

  it(
    "recommends the mint on nostr (NIP-87 kind 38000, read back by an outside client) and withdraws it",
    async () => {
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      ok(await host.run({ _tag: "RecommendFederation", federationId: mint, recommend: true }));
      expect(federation()?.recommended).toBe(true);
      const pubkey = pubkeyOf(seedSecretKey(words.join(" ")));
      let found: Awaited<ReturnType<typeof onRelay>> = [];
      await until("the recommendation on the relay", async () => {
        found = await onRelay([38000], pubkey);
        return found.length > 0;
      });
      const rec = found[0];
      expect(rec?.kind).toBe(38000);
      expect(rec?.tags).toEqual(
        expect.arrayContaining([
          ["d", mint],
          ["k", "38172"],
          ["u", mint, "cashu"],
          ["n", "regtest"],
        ]),
      );

      ok(await host.run({ _tag: "RecommendFederation", federationId: mint, recommend: false }));
      expect(federation()?.recommended).toBe(false);
      let deletions: Awaited<ReturnType<typeof onRelay>> = [];
      await until("the withdrawal on the relay", async () => {
        deletions = await onRelay([5], pubkey);
        return deletions.length > 0;
      });
      expect(deletions[0]?.tags).toEqual(
        expect.arrayContaining([
          ["a", `38000:${pubkey}:${mint}`],
          ["e", rec?.id],
          ["k", "38000"],
        ]),
      );
      // Recommended again at once: dated after the withdrawal, so it counts here and on the relay.
      ok(await host.run({ _tag: "RecommendFederation", federationId: mint, recommend: true }));
      expect(federation()?.recommended).toBe(true);
      await until("the new recommendation on the relay", async () =>
        (await onRelay([38000], pubkey)).some((e) => e.created_at > (deletions[0]?.created_at ?? 0)),
      );
    },
    LONG,
  );

  it(
    "reads the mint's info again: an end date it announced since joining, and its message of the day",
    async () => {
      // Read once already when the ecash engine started (joining records no message of the day).
      await until("the info read when the wallet opened", () => federation()?.motd != null, 60_000);
      expect(federation()?.federation_expiry_timestamp).toBeNull();
      const at = Math.floor(Date.now() / 1000) + 7 * 86_400;
      await postJson(mint, "/admin/expiry", { end_of_service: at });
      expect(ok(await host.run({ _tag: "RefreshEcashInfo" }))).toEqual({ changed: 1 });
      expect(federation()?.federation_expiry_timestamp).toBe(at);
      expect(federation()?.popup_end_timestamp).toBe(at);
      expect(federation()?.motd).toBe("The local world's test mint.");
      expect(federation()?.max_receive).toBeGreaterThan(0n);
      // Nothing new: nothing recorded.
      expect(ok(await host.run({ _tag: "RefreshEcashInfo" }))).toEqual({ changed: 0 });
      await postJson(mint, "/admin/expiry", { end_of_service: null });
      expect(ok(await host.run({ _tag: "RefreshEcashInfo" }))).toEqual({ changed: 1 });
      expect(federation()?.popup_end_timestamp).toBeNull();
    },
    LONG,
  );

  it(
    "imports another device's state file: the proof sets merge, the ones spent there are dropped, none counted twice",
    async () => {
      expect(await held()).toBe(10_000n);
      // A second device of the same wallet, from this one's state file.
      const file = ok<{ json: string }>(await host.run({ _tag: "ExportState", password: "file password" }));
      const other = await openWorldHost(new WalletDb("federations-other"), config, () => undefined, {
        list: [ecashEngine],
        platform,
      });
      ok(await other.run({ _tag: "ImportState", text: file.json, password: "file password" }));
      // There, 500 come in and a token of 1,234 leaves (spending proofs this device still holds).
      const q = ok<{ bolt11: string }>(
        await other.run({ _tag: "ReceiveEcash", federationId: mint, amountSats: 500n }),
      );
      await postJson(h.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
      await until(
        "the 500 minted there",
        async () =>
          ok<{ receivedSats: bigint }>(await other.run({ _tag: "CheckEcash", federationId: mint }))
            .receivedSats > 0n,
        60_000,
        500,
      );
      ok(await other.run({ _tag: "SendEcashToken", federationId: mint, amountSats: 1_234n }));
      const theirs = ok<{ json: string }>(
        await other.run({ _tag: "ExportState", password: "file password" }),
      );
      await other.stop();

      ok(await host.run({ _tag: "ImportState", text: theirs.json, password: "file password" }));
      await until(
        "the proofs spent there dropped",
        async () => !decodeState(await host.secrets.store.get(stateKey(mint))).unchecked,
        60_000,
        200,
      );
      expect(await held()).toBe(10_000n + 500n - 1_234n);
      expect(federation()?.balance).toBe(10_000n + 500n - 1_234n);
      // What is held is all spendable, and new operations here reuse no counter used there.
      ok(await host.run({ _tag: "SendEcashToken", federationId: mint, amountSats: 9_266n }));
      expect(await held()).toBe(0n);
      expect(federation()?.balance).toBe(0n);
    },
    LONG,
  );
});
