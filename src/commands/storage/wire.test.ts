/**
 * The wallet's node on the world's storage server (issue 32): the device lock taken before the node starts,
 * the channel state mirrored there, a second device on the same words told it already runs, and a server
 * that is slow to answer at start waited for.
 */
import { hex } from "@scure/base";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { linkUpTo } from "../../../harness/link";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { type Harness, startHarness } from "../../../harness/world";
import { openLockStore, openSealedStore, storageKeysOfWords } from "../../engine/storage";
import { DEVICE_LOCK_NAME } from "../../engine/storage/device-lock";
import { MANAGER_KEY } from "../../engine/lightning/store";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import type { WalletHost } from "../host/host";
import { addContact, ok, openWorldHost, worldStorageConfig } from "../host/host.testing";
import { JOURNAL_HEAD } from "../../engine/storage/journal";

let h: Harness;

/** A device: its own database, and the host open on it (restored from `words` the first time). */
const device = (name: string) => {
  const db = new WalletDb(name);
  let views: Partial<AllViews> = {};
  let host: WalletHost | null = null;
  return {
    views: () => views,
    open: async (storage: string, words?: string[]) => {
      host = await openWorldHost(db, worldStorageConfig(h, storage), (v) => {
        views = { ...views, ...v };
      });
      views = host.views();
      if (words) ok(await host.run({ _tag: "RestoreWallet", words }));
      await host.whenLightning();
      return host;
    },
    host: () => {
      if (!host) throw new Error("not open");
      return host;
    },
    stop: async () => {
      await host?.stop();
      host = null;
    },
  };
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  // The embedded database starts on first use; the tests below are about the wallet, not its start.
  await h.storage.db();
}, 180_000);

stopAfterAll(() => [h]);

describe("the node on the storage server", () => {
  it("takes the device lock and keeps its channel state there; a second device is told it already runs, until the first stops", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const phone = device("storage-phone");
    const laptop = device("storage-laptop");
    await phone.open(h.storageUrl, words);
    expect(phone.views().live?.lightning).toBe("ready");
    const nodeId = phone.views().live?.node_id;
    const remote = openSealedStore({
      url: h.storageUrl,
      keys: storageKeysOfWords(words.join(" ")),
      network: "regtest",
    });
    const lock = openLockStore({
      url: h.storageUrl,
      keys: storageKeysOfWords(words.join(" ")),
      network: "regtest",
    });
    expect(await lock.get(DEVICE_LOCK_NAME)).not.toBeNull();
    // The lock is in a store of its own: the wallet's holds its channel state and log only.
    expect(await remote.get(DEVICE_LOCK_NAME)).toBeNull();
    expect((await remote.list()).names.map((n) => n.name)).toContain(MANAGER_KEY);

    await laptop.open(h.storageUrl, words);
    const live = laptop.views().live;
    expect(live?.lightning).toBe("failed");
    expect(live?.lightning_error).toMatch(/^Mutiny is already running/);
    expect(live?.lock_remaining_secs).toBeGreaterThan(0);
    expect(live?.lock_remaining_secs).toBeLessThanOrEqual(60);
    await laptop.stop();

    // A clean stop gives the lock up: the other device starts at once, on the state the first stored.
    await phone.stop();
    expect(await lock.get(DEVICE_LOCK_NAME)).toBeNull();
    await laptop.open(h.storageUrl);
    expect(laptop.views().live?.lightning).toBe("ready");
    expect(laptop.views().live?.node_id).toBe(nodeId);
    // Now the first device is the one told to wait.
    await phone.open(h.storageUrl);
    expect(phone.views().live?.lightning_error).toMatch(/^Mutiny is already running/);
    await phone.stop();
    await laptop.stop();
  }, 240_000);

  it("keeps the wallet's log there too: a new browser restoring the words gets the contacts and history, and each device gets what the other recorded", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const phone = device("log-phone");
    const laptop = device("log-laptop");
    await phone.open(h.storageUrl, words);
    const alice = await addContact(phone.host(), {
      name: "Alice",
      npub: "",
      ln_address: "alice@example.com",
    });
    ok(await phone.host().run({ _tag: "SetLabels", itemId: alice, labels: ["friend"] }));
    const remote = openSealedStore({
      url: h.storageUrl,
      keys: storageKeysOfWords(words.join(" ")),
      network: "regtest",
    });
    // Sent up shortly after each commit.
    await expect.poll(async () => (await remote.get(JOURNAL_HEAD)) !== null, { timeout: 30_000 }).toBe(true);
    await phone.stop();

    await laptop.open(h.storageUrl, words);
    expect(laptop.views().live?.lightning).toBe("ready");
    await expect
      .poll(() => laptop.views().contacts?.map((c) => c.name) ?? [], { timeout: 30_000 })
      .toContain("Alice");
    await expect.poll(() => laptop.views().live?.storage_restore ?? null).not.toBeNull();
    const restore = laptop.views().live?.storage_restore;
    expect(restore?.contacts).toBe(1);
    expect(restore?.events).toBeGreaterThan(0);
    const walletId = phone.views().wallet?.walletId;
    expect(laptop.views().wallet?.walletId).toBe(walletId);
    // Sent up as the wallet stops, before the lock is given up.
    await addContact(laptop.host(), { name: "Bob", npub: "", ln_address: "bob@example.com" });
    await laptop.stop();

    // The first device, opened again, brings in what the second recorded, and says nothing of a restore.
    await phone.open(h.storageUrl);
    await expect
      .poll(
        () =>
          phone
            .views()
            .contacts?.map((c) => c.name)
            .sort() ?? [],
        { timeout: 30_000 },
      )
      .toEqual(["Alice", "Bob"]);
    expect(phone.views().live?.storage_restore ?? null).toBeNull();
    // Both devices name the wallet by the first one's id: a state file of one merges into the other.
    expect(phone.views().wallet?.walletId).toBe(walletId);
    await phone.stop();
  }, 240_000);

  it("says so when the log cannot reach the storage server, and sends it once the server is back", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const link = await linkUpTo(h.esploraUrl);
    const tablet = device("storage-log-retry");
    const tabletUrl = `http://127.0.0.1:${link.port}/storage`;
    await tablet.open(tabletUrl, words);
    // The store the tablet keeps at the address it knows the server by, read past the link.
    const remote = openSealedStore({
      url: tabletUrl,
      keys: storageKeysOfWords(words.join(" ")),
      network: "regtest",
      fetchFn: (input, init) => fetch(String(input).replace(tabletUrl, h.storageUrl), init),
    });
    const head = async () => {
      const got = await remote.get(JOURNAL_HEAD);
      return got ? hex.encode(got.value) : null;
    };
    await expect.poll(head, { timeout: 60_000 }).not.toBeNull();
    const before = await head();
    await link.down();
    await addContact(tablet.host(), { name: "Carol", npub: "", ln_address: "carol@example.com" });
    await until(
      "the banner to say storage is waited for",
      () => tablet.views().live?.storage_waiting === true,
      60_000,
    );
    expect(await head()).toBe(before);
    await link.up();
    // Sent again without another commit; the banner goes once it got through.
    await until(
      "the log to reach the server again",
      async () => (await head()) !== before,
      60_000,
      250,
    ).catch((e) => {
      const live = tablet.views().live;
      throw new Error(`${String(e)}: lightning ${live?.lightning}, ${live?.lightning_error ?? "no error"}`);
    });
    await until("the banner to go", () => tablet.views().live?.storage_waiting === false, 60_000);
    await tablet.stop();
    await link.down();
  }, 240_000);

  it("waits for a storage server that does not answer yet when the node starts, then runs on it", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const link = await linkUpTo(h.esploraUrl);
    await link.down();
    const tablet = device("storage-tablet");
    const opening = tablet.open(`http://127.0.0.1:${link.port}/storage`, words);
    // The node has got as far as its storage, however long the machine took to get there, and keeps
    // waiting on the server rather than failing or starting without it.
    await until(
      "the node to reach its storage",
      () => tablet.views().live?.lightning_stage === "restoring",
      120_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(tablet.views().live?.lightning).toBe("starting");
    await link.up();
    await opening;
    expect(tablet.views().live?.lightning).toBe("ready");
    await tablet.stop();
    await link.down();
  }, 240_000);
});

describe("a storage server gone back to an older state", () => {
  it("does not stop the wallet: the node runs on the device's own state, home says which save each held, and the server catches up", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const url = `${h.esploraUrl}/hostile/behind/storage`;
    const phone = device("storage-behind-phone");
    await phone.open(url, words);
    expect(phone.views().live?.lightning).toBe("ready");
    // The server's state is kept while nothing writes to it (a running node writes whenever its peers speak).
    await phone.stop();
    await postJson(h.esploraUrl, "/hostile/behind/storage-save", {});
    const remote = openSealedStore({ url, keys: storageKeysOfWords(words.join(" ")), network: "regtest" });
    const globalNow = async () => (await remote.list()).globalVersion;
    const saved = await globalNow();
    // The node writes its state again (a start and a stop write it), then the server is put back to the saved one.
    await phone.open(url);
    await phone.stop();
    expect(await globalNow()).toBeGreaterThan(saved);
    await postJson(h.esploraUrl, "/hostile", { service: "storage", scope: "behind", mode: "rollback" });
    try {
      await phone.open(url);
      const live = phone.views().live;
      expect(live?.lightning).toBe("ready");
      expect(live?.storage_behind).toMatchObject({ server: saved.toString(), forged: false });
      expect(BigInt(live?.storage_behind?.device ?? "0")).toBeGreaterThan(saved);
      await phone.stop();
    } finally {
      await postJson(h.esploraUrl, "/hostile", { service: "storage", scope: "behind", mode: null });
    }
    // The server holds the device's state again: the next start is in step, and says nothing.
    await phone.open(url);
    expect(phone.views().live?.lightning).toBe("ready");
    expect(phone.views().live?.storage_behind ?? null).toBeNull();
    await phone.stop();
  }, 240_000);
});
