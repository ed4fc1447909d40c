/**
 * The wallet's node on the world's storage server (issue 32): the device lock taken before the node starts,
 * the channel state mirrored there, a second device on the same words told it already runs, and a server
 * that is slow to answer at start waited for.
 */
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Link } from "../../harness/link";
import { type Harness, startHarness } from "../../harness/world";
import { DEFAULT_SERVERS, type WalletConfig } from "../config";
import { openSealedStore, storageKeysOfWords } from "../engine/storage";
import { DEVICE_LOCK_NAME } from "../engine/storage/device-lock";
import { MANAGER_KEY } from "../engine/lightning/store";
import { WalletDb } from "../events/db";
import type { AllViews } from "../projections/live";
import type { WalletHost } from "./host";
import { ok, openWorldHost } from "./host.testing";

let h: Harness;

const configOn = (storage: string): WalletConfig => ({
  network: "regtest",
  esplora: h.esploraUrl,
  priceSource: "",
  proxy: h.proxyUrl,
  lsp: h.esploraUrl,
  servers: {
    ...DEFAULT_SERVERS.regtest,
    esplora: h.esploraUrl,
    proxy: h.proxyUrl,
    lsp: h.esploraUrl,
    rgs: "",
    storage,
  },
});

/** A device: its own database, and the host open on it (restored from `words` the first time). */
const device = (name: string) => {
  const db = new WalletDb(name);
  let views: Partial<AllViews> = {};
  let host: WalletHost | null = null;
  return {
    views: () => views,
    open: async (storage: string, words?: string[]) => {
      host = await openWorldHost(db, configOn(storage), (v) => {
        views = { ...views, ...v };
      });
      views = host.views();
      if (words) ok(await host.run({ _tag: "RestoreWallet", words }));
      await host.whenLightning();
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

afterAll(async () => {
  await h?.stop();
});

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
    expect(await remote.get(DEVICE_LOCK_NAME)).not.toBeNull();
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
    expect(await remote.get(DEVICE_LOCK_NAME)).toBeNull();
    await laptop.open(h.storageUrl);
    expect(laptop.views().live?.lightning).toBe("ready");
    expect(laptop.views().live?.node_id).toBe(nodeId);
    // Now the first device is the one told to wait.
    await phone.open(h.storageUrl);
    expect(phone.views().live?.lightning_error).toMatch(/^Mutiny is already running/);
    await phone.stop();
    await laptop.stop();
  }, 240_000);

  it("waits for a storage server that does not answer yet when the node starts, then runs on it", async () => {
    const words = generateMnemonic(wordlist).split(" ");
    const link = new Link(Number(new URL(h.esploraUrl).port));
    await link.up();
    await link.down();
    const tablet = device("storage-tablet");
    const opening = tablet.open(`http://127.0.0.1:${link.port}/storage`, words);
    await new Promise((r) => setTimeout(r, 1500));
    expect(tablet.views().live?.lightning).toBe("starting");
    await link.up();
    await opening;
    expect(tablet.views().live?.lightning).toBe("ready");
    await tablet.stop();
    await link.down();
  }, 240_000);
});
