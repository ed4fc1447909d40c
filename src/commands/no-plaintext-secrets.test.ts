import { base58check, hex } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { HDKey } from "@scure/bip32";
import { privateKeyFromSeedWords } from "nostr-tools/nip06";
import { nsecEncode } from "nostr-tools/nip19";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { rootKey } from "../engine/keys/mnemonic";
import { WalletDb } from "../events/db";
import { KV } from "../events/storage-keys";
import { STATES_SNAPSHOT } from "./host/snapshot";
import { ok, openOfflineHost, setFirstPassword } from "./offline.testing";

/**
 * With a password set, nothing secret may be readable from this device's storage or from any file the
 * wallet writes: every value of every IndexedDB table is read raw, along with each export.
 */

const TESTNET = { private: 0x04358394, public: 0x043587cf };

const wif = (key: Uint8Array, prefix: number) =>
  base58check(sha256).encode(new Uint8Array([prefix, ...key, 0x01]));

/** Every stored value as text: JSON, with bytes also as hex and as Latin-1 text. */
const rawDump = async (db: WalletDb): Promise<string> => {
  const parts: string[] = [];
  const bytes = (b: Uint8Array) => {
    parts.push(hex.encode(b), String.fromCharCode(...b));
    return hex.encode(b);
  };
  for (const table of db.tables) {
    const rows = await table.toArray();
    parts.push(
      JSON.stringify(rows, (_k, v) =>
        v instanceof Uint8Array ? bytes(v) : typeof v === "bigint" ? v.toString() : v,
      ),
    );
  }
  return parts.join("\n");
};

let words: string[];
let dump: string;
let exports: string[];
let derived: {
  extended: string[];
  wifs: string[];
  hexKeys: string[];
  nsec: string;
};

beforeAll(async () => {
  const db = new WalletDb("no-plaintext-secrets");
  const host = await openOfflineHost(db);
  ok(await host.run({ _tag: "CreateWallet" }));
  ({ words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] });
  const mnemonic = words.join(" ");
  ok(await host.run({ _tag: "SetLabels", itemId: "tx:00", labels: ["rent"] }));
  ok(await host.run({ _tag: "MarkBackedUp" }));

  const root = rootKey(mnemonic);
  const account = root.derive("m/84'/1'/0'");
  const first = account.derive("m/0/0");
  const nostrKey = privateKeyFromSeedWords(mnemonic);
  const nsec = nsecEncode(nostrKey);
  const asTestnet = (k: HDKey) =>
    new HDKey({
      versions: TESTNET,
      depth: k.depth,
      index: k.index,
      parentFingerprint: k.parentFingerprint,
      chainCode: k.chainCode as Uint8Array,
      privateKey: k.privateKey as Uint8Array,
    });
  derived = {
    extended: [
      root.privateExtendedKey,
      account.privateExtendedKey,
      asTestnet(root).privateExtendedKey,
      asTestnet(account).privateExtendedKey,
    ].filter((k) => k.length > 0),
    wifs: [first, account.derive("m/1/0")].flatMap((k) => [
      wif(k.privateKey as Uint8Array, 0xef),
      wif(k.privateKey as Uint8Array, 0x80),
    ]),
    hexKeys: [root, account, first, account.derive("m/1/0")]
      .map((k) => hex.encode(k.privateKey as Uint8Array))
      .concat(hex.encode(nostrKey)),
    nsec,
  };

  // What the nostr and lightning engines keep: their secrets, stored before the password is set.
  await db.kv.put({ key: KV.nostrSecret, value: { nsec } });
  const text = new TextEncoder();
  await host.secrets.putEngineBlobs([
    { key: "ln/node_secret", value: first.privateKey as Uint8Array },
    {
      key: "ln/manager",
      value: text.encode(`${mnemonic} ${derived.extended.join(" ")} ${derived.wifs.join(" ")} ${nsec}`),
    },
  ]);

  await setFirstPassword(host, "a long password");
  // The snapshot of the folded log (written a moment after the last change) is part of what is read.
  await vi.waitFor(async () => expect(await db.snapshots.get(STATES_SNAPSHOT)).toBeDefined(), {
    timeout: 30_000,
  });
  dump = await rawDump(db);
  const state = ok(await host.run({ _tag: "ExportState", password: "file password" })) as { json: string };
  const labels = ok(await host.run({ _tag: "ExportLabels" })) as { jsonl: string };
  exports = [state.json, labels.jsonl];
  // The storage really holds the wallet: the seed is there, sealed.
  expect((await db.kv.get(KV.seed))?.value).toMatchObject({ format: "vault" });
});

const everywhere = () => [dump, ...exports];

describe("with a password, no plaintext secret in storage or exports", () => {
  it("no sequence of seed words", () => {
    for (const text of everywhere()) {
      const lower = text.toLowerCase();
      for (let i = 0; i + 3 <= words.length; i++)
        expect(lower).not.toContain(words.slice(i, i + 3).join(" "));
      expect(lower).not.toContain(words.join(""));
    }
  });

  it("no extended private key (xprv, tprv)", () => {
    for (const text of everywhere()) {
      expect(text).not.toMatch(/[xt]prv[1-9A-HJ-NP-Za-km-z]{100,}/);
      for (const k of derived.extended) expect(text).not.toContain(k);
    }
  });

  it("no private key in WIF", () => {
    for (const text of everywhere()) for (const k of derived.wifs) expect(text).not.toContain(k);
  });

  it("no derived private key as 32-byte hex", () => {
    for (const text of everywhere())
      for (const k of derived.hexKeys) {
        expect(text.toLowerCase()).not.toContain(k);
      }
  });

  it("no nostr secret key (nsec)", () => {
    for (const text of everywhere()) {
      expect(text).not.toContain(derived.nsec);
      expect(text).not.toMatch(/nsec1[02-9ac-hj-np-z]{58}/);
    }
  });
});
