/**
 * Two `services` processes on one PostgreSQL serve the same wallets: a storage write through one is read
 * through the other, the device lock holds across them, and a lightning-address name reserved on one is
 * taken on the other. On Debian's PostgreSQL (`npm test` starts it and sets STORAGE_POSTGRES_URL, see
 * scripts/postgres.mjs); each run in a database of its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { randomBytes } from "@noble/hashes/utils.js";
import { hex } from "@scure/base";
import { getToken } from "nostr-tools/nip98";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AlreadyRunning, DeviceLock } from "../src/engine/storage/device-lock";
import { openSealedStore } from "../src/engine/storage/index";
import { storageKeys } from "../src/engine/storage/keys";
import { rejection } from "./testing/rejection";
import { TEST_ENV } from "./testing/services";
import { ownPostgresDatabase } from "./storage/testing";

const postgresUrl = process.env.STORAGE_POSTGRES_URL;
if (!postgresUrl)
  console.log(
    "STORAGE_POSTGRES_URL is not set, so the two-process test is skipped: it needs a PostgreSQL both processes share (npm test sets it).",
  );

const root = fileURLToPath(new URL("..", import.meta.url));
const db = ownPostgresDatabase(postgresUrl ?? "", "services_two");
const databaseUrl = db.url;

/** Starts `npm run services` as its own process on a free port; answers its URL once it listens. */
const startProcess = (children: ChildProcess[]): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, "services/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        ...TEST_ENV,
        DATABASE_URL: databaseUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let out = "";
    const read = (d: Buffer) => {
      out += d.toString();
      const url = /services for regtest on (http:\/\/\S+),/.exec(out)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`services exited (${code}): ${out}`)));
  });

describe.skipIf(!postgresUrl)("two services processes on one PostgreSQL", () => {
  const children: ChildProcess[] = [];
  let one = "";
  let two = "";

  beforeAll(async () => {
    await db.create();
    // One first (it makes the schema), then the other beside it.
    one = await startProcess(children);
    two = await startProcess(children);
  });
  afterAll(async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            c.once("exit", () => resolve());
            c.kill("SIGTERM");
          }),
      ),
    );
    await db.drop();
  });

  const keys = storageKeys(randomBytes(32), randomBytes(32));
  // The wallet knows one address (as behind a balancer: its storage keys are per server address); each
  // request goes to the process `base` names.
  const store = (base: string) =>
    openSealedStore({
      url: "https://services.example/storage",
      keys,
      network: "regtest",
      fetchFn: (input, init) =>
        fetch(
          String(input instanceof Request ? input.url : input).replace("https://services.example", base),
          init,
        ),
    });

  test("a write through one is read through the other, and a stale write through either is refused", async () => {
    const value = new TextEncoder().encode("channel monitor");
    await store(one).put([{ name: "monitor", version: 0n, value }]);
    const read = await store(two).get("monitor");
    expect(read?.version).toBe(1n);
    expect(new TextDecoder().decode(read?.value)).toBe("channel monitor");
    await store(two).put([{ name: "monitor", version: 1n, value: new TextEncoder().encode("newer") }]);
    expect(await rejection(store(one).put([{ name: "monitor", version: 1n, value }]))).toBeDefined();
    expect(new TextDecoder().decode((await store(one).get("monitor"))?.value)).toBe("newer");
  });

  test("the device lock taken through one holds against a device on the other", async () => {
    const phone = new DeviceLock({ store: store(one), deviceId: "phone" });
    const laptop = new DeviceLock({ store: store(two), deviceId: "laptop" });
    await phone.acquire();
    const refused = await rejection(laptop.acquire());
    expect(refused).toBeInstanceOf(AlreadyRunning);
    expect((refused as AlreadyRunning).remainingSecs).toBeGreaterThan(0);
    expect(laptop.holds()).toBe(false);
  });

  test("a lightning-address name reserved on one is taken on the other", async () => {
    // Two Plus members, as the members table both processes read records them.
    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const paidUntil = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const key of [alice, bob])
        await client.query(
          "INSERT INTO plus_members (pubkey, plan_id, nwc, paid_until) VALUES ($1, 1, $2, $3)",
          [getPublicKey(key), "nostr+walletconnect://00?relay=ws://127.0.0.1:9&secret=00", paidUntil],
        );
    } finally {
      await client.end();
    }
    const reserve = async (base: string, key: Uint8Array, name: string) => {
      const url = `${base}/hermes/names`;
      const auth = await getToken(url, "post", (e) => finalizeEvent(e, key), true);
      return fetch(url, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
    };
    const name = `satoshi${hex.encode(randomBytes(3))}`;
    const reserved = await reserve(one, alice, name);
    expect(reserved.status).toBe(200);
    const check = await fetch(`${two}/hermes/names/check?name=${name}`);
    expect(await check.json()).toEqual({ available: false });
    const taken = await reserve(two, bob, name);
    expect(taken.status).toBe(409);
    expect(await taken.text()).toBe("Name already taken");
    const pay = await fetch(`${two}/.well-known/lnurlp/${name}`);
    expect(((await pay.json()) as { tag: string }).tag).toBe("payRequest");
    // Racing for one free name through both processes: exactly one wins.
    const other = `race${hex.encode(randomBytes(3))}`;
    const race = await Promise.all([reserve(one, alice, other), reserve(two, bob, other)]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
