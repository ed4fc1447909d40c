/**
 * The watchtower as an operator runs it, on the world's chain: it stores only well-formed appointments
 * signed by their wallet's key (garbage, replays and another wallet's key store nothing), keeps them across
 * a restart, and when a block holds the transaction a locator names, broadcasts the justice transaction
 * inside; two towers on one database broadcast it once. On PostgreSQL too when STORAGE_POSTGRES_URL is set.
 */
import { hex } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAfterAll } from "../../harness/stop-after-all";
import { startStorage } from "../storage/service";
import { ownPostgresDatabase } from "../storage/testing";
import { type Harness, startHarness } from "../../harness/world";
import {
  appointmentFor,
  internalTxid,
  locatorOf,
  signAppointment,
  towerKey,
} from "../../src/engine/tower/appointment";
import { startTower, type Tower } from "./tower";

const postgresUrl = process.env.STORAGE_POSTGRES_URL;
const pg = postgresUrl ? ownPostgresDatabase(postgresUrl, "tower") : null;
let h: Harness;
let storage: ReturnType<typeof startStorage>;
let tower: Tower;
const towers: Tower[] = [];
const open = (maxPerUser?: number) => {
  const t = startTower({ db: storage.db, esploraUrl: h.esploraUrl, ...(maxPerUser ? { maxPerUser } : {}) });
  towers.push(t);
  return t;
};

const post = (t: Tower, body: unknown) => {
  const route = t.routes.find(([m, p]) => m === "POST" && p.test("/tower/appointment"))!;
  return Promise.resolve(
    route[2](["/tower/appointment"], typeof body === "string" ? body : JSON.stringify(body)),
  )
    .then((r) => ({ status: r.status ?? 200, json: r.json }))
    .catch((e: { status?: number; message: string }) => ({ status: e.status ?? 500, json: e.message }));
};

const alice = towerKey(new Uint8Array(32).fill(1));
const bob = towerKey(new Uint8Array(32).fill(2));
const someTxid = () => crypto.getRandomValues(new Uint8Array(32));
const fakeJustice = new Uint8Array(120).fill(7);

beforeAll(async () => {
  await pg?.create();
  h = await startHarness({ port: 0 });
  storage = startStorage(pg ? { databaseUrl: pg.url } : {});
  await storage.db();
  tower = open();
}, 180_000);
stopAfterAll(() => [...towers, storage, h]);
afterAll(async () => {
  await pg?.drop();
});

describe("the watchtower", () => {
  it("refuses garbage, replays and another wallet's key, and stores nothing for them", async () => {
    const good = appointmentFor(alice.secret, someTxid(), fakeJustice);
    expect((await post(tower, good)).status).toBe(200);
    const before = await tower.count();
    const refusals = [
      await post(tower, "not json"),
      await post(tower, [1, 2, 3]),
      await post(tower, { ...good, locator: "00" }),
      await post(tower, { ...good, blob: "ab" }),
      await post(tower, { ...good, blob: "00".repeat(5_000) }),
      await post(tower, { ...good, signature: "zz".repeat(64) }),
      // Signed by Bob's key in Alice's name.
      await post(tower, {
        ...signAppointment(bob.secret, hex.decode(good.locator), hex.decode(good.blob)),
        user: alice.user,
      }),
      // Alice's request with another blob under her signature.
      await post(tower, { ...good, blob: hex.encode(new Uint8Array(200).fill(9)) }),
      // The same request again.
      await post(tower, good),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 401, 401, 409]);
    expect(await tower.count()).toBe(before);
  });

  it("keeps at most so many appointments per wallet", async () => {
    const small = open(2);
    const carol = towerKey(new Uint8Array(32).fill(3));
    expect((await post(small, appointmentFor(carol.secret, someTxid(), fakeJustice))).status).toBe(200);
    expect((await post(small, appointmentFor(carol.secret, someTxid(), fakeJustice))).status).toBe(200);
    expect((await post(small, appointmentFor(carol.secret, someTxid(), fakeJustice))).status).toBe(429);
    // Another wallet is not held back by Carol's.
    expect((await post(small, appointmentFor(bob.secret, someTxid(), fakeJustice))).status).toBe(200);
  });

  it("broadcasts the justice transaction once the breach is in a block, once for two towers on one database, after a restart", async () => {
    // A transaction the world will mine (the "revoked commitment"), and a valid one to broadcast for it.
    const faucetScript = hex.decode("0014".concat("11".repeat(20)));
    const justice = await h.fundingTx(faucetScript, 20_000n);
    await h.mine(1);
    const address = h.faucetAddress;
    const breachTxid = await h.faucet(address, 30_000n);
    const txid = internalTxid(breachTxid);
    expect((await post(tower, appointmentFor(alice.secret, txid, justice))).status).toBe(200);
    // The tower's process restarts; another runs beside it on the same database.
    tower.stop();
    const one = open();
    const two = open();
    await one.check();
    await two.check();
    await h.mine(1);
    const sent = [...(await Promise.all([one.check(), two.check()]))].flat();
    expect(sent).toHaveLength(1);
    await h.waitForTx(sent[0]!);
    // What the tower held told it nothing before: the blob opens only with the breach's txid.
    const rows = await (await storage.db()).query<{ locator: string }>(
      "SELECT locator FROM tower_appointments WHERE locator=$1",
      [hex.encode(locatorOf(txid))],
    );
    expect(rows.rows).toHaveLength(1);
  }, 120_000);
});
