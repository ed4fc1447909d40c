import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { decodeState, emptyState, encodeState, stateKey } from "../../engine/ecash/cashu/state";
import { WalletDb } from "../../events/db";
import { ok, openOfflineHost, setFirstPassword } from "../offline.testing";

/**
 * The ecash adapter's store (proofs are bearer secrets) is an engine blob like the lightning node's: sealed
 * with the wallet's password at rest, inside the sealed envelope of a state file, and brought back by its
 * import.
 */
const MINT = "http://127.0.0.1:1/cashu";
const SECRET = "5ec2e7".repeat(10);

const raw = async (db: WalletDb) => {
  const rows = await db.kv.toArray();
  return JSON.stringify(rows, (_k, v) => (v instanceof Uint8Array ? new TextDecoder("latin1").decode(v) : v));
};

describe("ecash proofs at rest", () => {
  it("are sealed with the password, exported sealed, and imported back", async () => {
    const db = new WalletDb("ecash-at-rest");
    const host = await openOfflineHost(db);
    ok(await host.run({ _tag: "CreateWallet" }));
    ok(await host.run({ _tag: "MarkBackedUp" }));
    const state = emptyState();
    state.proofs.push({ id: "00ad268c4d1f5826", amount: "8", secret: SECRET, C: `02${"ab".repeat(32)}` });
    await host.secrets.store.put([{ key: stateKey(MINT), value: encodeState(state) }]);
    expect(await raw(db)).toContain(SECRET);

    await setFirstPassword(host, "a long password");
    expect(await raw(db)).not.toContain(SECRET);
    expect(decodeState(await host.secrets.store.get(stateKey(MINT))).proofs[0]?.secret).toBe(SECRET);

    const file = ok(await host.run({ _tag: "ExportState", password: "file password" })) as { json: string };
    expect(file.json).not.toContain(SECRET);
    await host.stop();

    const other = new WalletDb("ecash-at-rest-import");
    const fresh = await openOfflineHost(other);
    ok(await fresh.run({ _tag: "ImportState", text: file.json, password: "file password" }));
    ok(await fresh.run({ _tag: "Unlock", password: "a long password" }));
    expect(decodeState(await fresh.secrets.store.get(stateKey(MINT))).proofs.map((p) => p.secret)).toEqual([
      SECRET,
    ]);
    await fresh.stop();
  });
});
