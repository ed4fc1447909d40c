/**
 * Ecash recovered from the seed on a second device, beside the wallet's log on the storage server (issue
 * 32): whichever comes first, the recovery or the other device's history, the mint's ecash counts once.
 * Recovery asked for before the history came back is refused and records nothing; once it is back, the
 * proofs the seed finds (the owner's recovery, or a mint's resync in safe mode) are the wallet's again and
 * nothing the history already counts is recorded twice.
 */
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { Link } from "../../../harness/link";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { ecashEngine } from "../../engine/ecash/engine";
import { lightningEngine } from "../../engine/lightning/engine";
import { onchainEngine } from "../../engine/onchain/engine";
import { openSealedStore, storageKeysOfWords } from "../../engine/storage";
import { readHead, readJournal } from "../../engine/storage/journal";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import type { AllViews } from "../../projections/live";
import { HISTORY_NOT_BACK } from "./common";
import { nodePlatform, ok, openWorldHost, worldStorageConfig } from "../host/host.testing";

const LONG = 300_000;
let h: Harness;

const open = async (name: string, storage: string) => {
  let views: Partial<AllViews> = {};
  const db = new WalletDb(name);
  const host = await openWorldHost(
    db,
    worldStorageConfig(h, storage),
    (v) => {
      views = { ...views, ...v };
    },
    { list: [onchainEngine, lightningEngine, ecashEngine], platform: nodePlatform },
  );
  views = host.views();
  const balance = (mint: string) => views.federations?.find((f) => f.federation_id === mint)?.balance ?? 0n;
  return { host, db, views: () => views, balance };
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  await h.storage.db();
}, LONG);

afterAll(async () => {
  await h?.stop();
});

describe("ecash recovered from the seed beside the log on the storage server", () => {
  it(
    "counts the mint's ecash once, whether recovery is asked for before or after the history comes back",
    async () => {
      const words = generateMnemonic(wordlist).split(" ");
      const mint = h.cashu.mintUrl;
      // Every device reaches the storage server at one address (the store's key is made for it), through a
      // link the test takes down and brings back.
      const link = new Link(Number(new URL(h.esploraUrl).port));
      await link.up();
      const storageUrl = `http://127.0.0.1:${link.port}/storage`;
      const remote = openSealedStore({
        url: storageUrl,
        keys: storageKeysOfWords(words.join(" ")),
        network: "regtest",
      });

      // The first device receives ecash at the mint; its log goes up to the storage server.
      const phone = await open("ecash-log-phone", storageUrl);
      ok(await phone.host.run({ _tag: "RestoreWallet", words }));
      await phone.host.whenLightning();
      ok(await phone.host.run({ _tag: "JoinFederation", code: mint }));
      const q = ok<{ bolt11: string }>(
        await phone.host.run({ _tag: "ReceiveEcash", federationId: mint, amountSats: 2_000n }),
      );
      await postJson(h.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
      await until(
        "the ecash minted",
        async () => {
          ok(await phone.host.run({ _tag: "CheckEcash", federationId: mint }));
          return phone.balance(mint) === 2_000n;
        },
        60_000,
        500,
      );
      const logged = (await readEvents(phone.db)).length;
      await until("the log on the server", async () => (await readHead(remote)).count >= logged, 60_000, 250);
      await phone.host.stop();

      // A new browser restores the words while the storage server cannot be reached: its node waits, and
      // with it the history. The owner joins the mint and asks for the ecash back: refused, nothing counted.
      await link.down();
      const laptop = await open("ecash-log-laptop", storageUrl);
      ok(await laptop.host.run({ _tag: "RestoreWallet", words }));
      ok(await laptop.host.run({ _tag: "JoinFederation", code: mint }));
      expect(await laptop.host.run({ _tag: "RestoreEcash" })).toMatchObject({
        ok: false,
        error: {
          _tag: "WalletState",
          message: HISTORY_NOT_BACK,
          key: "federations.restore_waits_for_storage",
        },
      });
      expect(laptop.balance(mint)).toBe(0n);

      // The server is back: the node starts on it and the first device's history comes in, with its ecash.
      await link.up();
      await laptop.host.whenLightning();
      expect(laptop.views().live?.lightning).toBe("ready");
      // Home says what came back once the first sync is through (brought in, and this device's own sent).
      await until(
        "the history back",
        () => (laptop.views().live?.storage_restore ?? null) !== null,
        60_000,
        250,
      );
      expect(laptop.balance(mint)).toBe(2_000n);

      // Recovery now finds the proofs the history counts: they are held again, and counted once.
      const r = ok<{ recoveredSats: bigint }>(await laptop.host.run({ _tag: "RestoreEcash" }));
      expect(r.recoveredSats).toBe(2_000n);
      expect(laptop.balance(mint)).toBe(2_000n);
      expect(laptop.views().balance?.federation).toBe(2_000n);
      // Asked again, it finds nothing new.
      expect(
        ok<{ recoveredSats: bigint }>(await laptop.host.run({ _tag: "RestoreEcash" })).recoveredSats,
      ).toBe(0n);
      expect(laptop.balance(mint)).toBe(2_000n);
      await laptop.host.stop();

      // A third browser, its history back, resyncs the mint in safe mode: the proofs are found again and
      // nothing the history counts is recorded twice.
      const tablet = await open("ecash-log-tablet", storageUrl);
      ok(await tablet.host.run({ _tag: "RestoreWallet", words }));
      await tablet.host.whenLightning();
      await until(
        "the history back",
        () => (tablet.views().live?.storage_restore ?? null) !== null,
        60_000,
        250,
      );
      expect(tablet.balance(mint)).toBe(2_000n);
      ok(await tablet.host.run({ _tag: "SetSafeMode", enabled: true }));
      // The mint joined on the first device starts the ecash engine here as its events arrive.
      await until(
        "the resync started",
        async () => (await tablet.host.run({ _tag: "ResyncFederation", federationId: mint })).ok,
        60_000,
        250,
      );
      let progress: { done: boolean; recoveredSats: bigint; error: string | null } | null = null;
      await until(
        "the resync done",
        async () => {
          progress = ok(await tablet.host.run({ _tag: "FederationResyncProgress", federationId: mint }));
          return progress?.done === true;
        },
        60_000,
        250,
      );
      expect(progress).toMatchObject({ done: true, recoveredSats: 2_000n, error: null });
      expect(tablet.balance(mint)).toBe(2_000n);
      await tablet.host.stop();
      await link.down();
    },
    LONG,
  );

  it(
    "keeps the log in step in safe mode, where no node runs: another device's events come in and a mint's resync goes ahead",
    async () => {
      const words = generateMnemonic(wordlist).split(" ");
      const mint = h.cashu.mintUrl;
      const storageUrl = `${h.esploraUrl}/storage`;
      const remote = openSealedStore({
        url: storageUrl,
        keys: storageKeysOfWords(words.join(" ")),
        network: "regtest",
      });
      /** Waits for the last event `db` recorded to be in the server's journal. */
      const onServer = async (db: WalletDb) => {
        const last = (await readEvents(db)).at(-1)!.id;
        await until(
          "the log on the server",
          async () =>
            (await readJournal(remote, 0)).entries.some((e) => (JSON.parse(e) as { id: string }).id === last),
          60_000,
          250,
        );
      };

      // The phone joins the mint and turns safe mode on; its log goes up before it stops.
      const phone = await open("safe-log-phone", storageUrl);
      ok(await phone.host.run({ _tag: "RestoreWallet", words }));
      await phone.host.whenLightning();
      ok(await phone.host.run({ _tag: "JoinFederation", code: mint }));
      ok(await phone.host.run({ _tag: "SetSafeMode", enabled: true }));
      await onServer(phone.db);
      await phone.host.stop();

      // Meanwhile another browser of the same words runs the node, records a choice of its own, and stops.
      const laptop = await open("safe-log-laptop", storageUrl);
      ok(await laptop.host.run({ _tag: "RestoreWallet", words }));
      await laptop.host.whenLightning();
      await until(
        "the history back",
        () => (laptop.views().live?.storage_restore ?? null) !== null,
        60_000,
        250,
      );
      ok(await laptop.host.run({ _tag: "SetFiat", code: "EUR" }));
      await onServer(laptop.db);
      const theirs = (await readEvents(laptop.db)).at(-1)!.id;
      await laptop.host.stop();

      // The phone opens again in safe mode: no node, no device lock, and still the laptop's choice comes in.
      const again = await open("safe-log-phone", storageUrl);
      await until("safe mode", () => again.views().live?.lightning === "safe_mode", 60_000, 250);
      await until(
        "the laptop's events on the phone",
        async () => {
          return (await readEvents(again.db)).some((e) => e.id === theirs);
        },
        60_000,
        250,
      );
      // In step with the server, the mint's resync is not refused.
      await until(
        "the ecash engine",
        async () => (await again.host.run({ _tag: "FederationResyncProgress", federationId: mint })).ok,
        60_000,
        250,
      );
      ok(await again.host.run({ _tag: "ResyncFederation", federationId: mint }));
      let progress: { done: boolean; error: string | null } | null = null;
      await until(
        "the resync done",
        async () => {
          progress = ok(await again.host.run({ _tag: "FederationResyncProgress", federationId: mint }));
          return progress?.done === true;
        },
        60_000,
        250,
      );
      expect(progress).toMatchObject({ done: true, error: null });
      await again.host.stop();
    },
    LONG,
  );
});
