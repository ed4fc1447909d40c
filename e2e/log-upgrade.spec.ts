import { expect, test } from "./fixtures";

/**
 * A wallet saved by the version that kept one database row per event opens in this one: its log moves to
 * rows of many events on the first start, every event and number kept, and home shows its balance.
 */

const TXS = 400;
const DB = "mutiny-wallet-regtest";

/** A log as the earlier version wrote it: the wallet, then addresses with confirmed payments to them. */
const oldLog = () => {
  const events: Record<string, unknown>[] = [];
  const push = (type: string, payload: Record<string, unknown>) =>
    events.push({
      id: `old-${events.length + 1}`,
      type,
      v: 1,
      at: 1_700_000_000_000 + events.length,
      device: "aa",
      payload,
    });
  push("wallet.created", { walletId: "wallet-old", network: "regtest", restored: false });
  let total = 0n;
  for (let i = 0; i < TXS; i++) {
    const txid = (i + 1).toString(16).padStart(64, "0");
    push("onchain.address_issued", {
      address: `bcrt1q${i.toString(16).padStart(38, "0")}`,
      keychain: "external",
      index: i,
      labels: [],
    });
    push("onchain.tx_seen", {
      txid,
      received: String(1000 + i),
      sent: "0",
      fee: "0",
      labels: [],
      outgoing: false,
    });
    push("onchain.tx_confirmed", {
      txid,
      height: 500 + i,
      blockHash: (i + 7).toString(16).padStart(64, "0"),
      blockTime: 1_700_000_000 + i,
    });
    total += BigInt(1000 + i);
  }
  return { events, total };
};

test("a wallet saved one row per event opens with every event after the upgrade, and home shows its balance", async ({
  page,
}) => {
  // The wallet's own server is unreachable: the balance shown is the log's alone, with no sync changing it.
  await page.addInitScript(() => localStorage.setItem("USER_SETTINGS_esplora", "http://127.0.0.1:9"));
  const { events, total } = oldLog();
  // A page of the wallet's origin that does not start it, to write the database as the earlier version did
  // (its schema version 1 is IndexedDB version 10).
  await page.goto("/icon.svg");
  await page.evaluate(
    async ({ name, events }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name, 10);
        r.onupgradeneeded = () => {
          const log = r.result.createObjectStore("events", { keyPath: "seq", autoIncrement: true });
          log.createIndex("id", "id", { unique: true });
          log.createIndex("type", "type");
          r.result.createObjectStore("kv", { keyPath: "key" });
          r.result.createObjectStore("snapshots", { keyPath: "name" });
        };
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(["events", "kv"], "readwrite");
        for (const e of events) tx.objectStore("events").add(e);
        tx.objectStore("kv").put({
          key: "seed",
          value: { mnemonic: `${"abandon ".repeat(11)}about` },
        });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { name: DB, events },
  );

  await page.goto("/");
  const balance = page.getByTestId("onchain-balance");
  await expect(balance).toHaveText(/[1-9]/, { timeout: 60_000 });
  expect((await balance.textContent())?.replace(/\D/g, "")).toBe(total.toString());

  // On disk: the old table is gone, and the new rows hold every event in order with its number.
  const stored = await page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const stores = Array.from(db.objectStoreNames).sort();
    const rows = await new Promise<{ events: { id: string; seq: number }[] }[]>((resolve, reject) => {
      const r = db.transaction("log").objectStore("log").getAll();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return { stores, rows: rows.length, events: rows.flatMap((r) => r.events.map((e) => [e.seq, e.id])) };
  }, DB);
  expect(stored.stores).toEqual(["kv", "log", "logIds", "snapshots"]);
  expect(stored.rows).toBeGreaterThan(1);
  expect(stored.events.slice(0, events.length)).toEqual(events.map((e, i) => [i + 1, e.id]));
});
