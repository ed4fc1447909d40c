/**
 * The watchtower an operator runs beside the wallet's other services: it keeps appointments (BOLT 13 /
 * teos style, `src/engine/tower/appointment.ts`) in the services' database and watches every block. When a
 * transaction's txid gives a stored locator, the txid opens the blob and the justice transaction inside is
 * broadcast: the wallet's channel is safe while its tab is closed.
 *
 *   POST /tower/appointment {user, locator, blob, signature}   200 {stored}, 400 garbage, 401 bad signature,
 *                                                              409 already stored (a replay), 429 full
 *   GET  /tower/info                                           {appointments_max, blob_max, height}
 *
 * Every process on one database serves the same wallets; a breach is claimed by a conditional insert, so
 * of two processes watching the same block only one broadcasts. The height last looked at is kept there too:
 * a tower that was down looks at the blocks it missed (up to `maxCatchUp`).
 */
import { hex } from "@scure/base";
import { boundedFetch, type FetchFn, globalFetch } from "../../src/engine/http/bounded";
import {
  decryptJustice,
  internalTxid,
  MAX_BLOB_BYTES,
  readAppointment,
} from "../../src/engine/tower/appointment";
import { type SqlDb, tablesOnFirstUse } from "../storage/db";
import { HttpError, parseJson, type RouteTable } from "../http";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS tower_appointments (
    user_key character(64) NOT NULL,
    locator character(32) NOT NULL,
    blob bytea NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (user_key, locator)
  )`,
  "CREATE INDEX IF NOT EXISTS tower_appointments_locator ON tower_appointments (locator)",
  `CREATE TABLE IF NOT EXISTS tower_breaches (
    user_key character(64) NOT NULL,
    locator character(32) NOT NULL,
    commitment_txid character(64) NOT NULL,
    justice_txid character(64),
    claimed_at bigint NOT NULL,
    PRIMARY KEY (user_key, locator)
  )`,
  "CREATE TABLE IF NOT EXISTS tower_state (name character varying(40) PRIMARY KEY, height integer NOT NULL)",
];

export interface TowerOptions {
  readonly db: () => Promise<SqlDb>;
  /** The Esplora API the tower reads blocks from and broadcasts to. */
  readonly esploraUrl: string;
  /**
   * How often it looks for a new block (ms); 0: only when `check` is called. The looking starts with the
   * first appointment or the first `check` (a world whose tower nobody uses never opens its database).
   */
  readonly pollMs?: number;
  /** Appointments kept per wallet key at most. */
  readonly maxPerUser?: number;
  /** Blocks looked at, at most, after a time down. */
  readonly maxCatchUp?: number;
  readonly fetch?: FetchFn;
  readonly log?: (message: string) => void;
}

export interface Tower {
  readonly routes: RouteTable;
  /** Looks at every block since the last one looked at; answers the justice transactions it broadcast. */
  readonly check: () => Promise<string[]>;
  /** Appointments stored (all wallets). */
  readonly count: () => Promise<number>;
  readonly stop: () => void;
}

export const DEFAULT_MAX_PER_USER = 20_000;

export const startTower = (opts: TowerOptions): Tower => {
  const maxPerUser = opts.maxPerUser ?? DEFAULT_MAX_PER_USER;
  const maxCatchUp = opts.maxCatchUp ?? 2016;
  const log = opts.log ?? (() => undefined);
  const base = opts.esploraUrl.replace(/\/+$/, "");
  const fetchFn = boundedFetch(opts.fetch ?? globalFetch, { timeoutMs: 20_000, maxBytes: 8_000_000 });
  const open = tablesOnFirstUse(opts.db, SCHEMA);

  const text = async (path: string, init?: RequestInit): Promise<string> => {
    const r = await fetchFn(`${base}${path}`, init);
    const body = await r.text();
    if (!r.ok) throw new Error(`${path}: ${r.status} ${body.slice(0, 200)}`);
    return body;
  };
  const txidsOf = async (height: number): Promise<string[]> => {
    const hash = (await text(`/block-height/${height}`)).trim();
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`bad block hash at ${height}`);
    const ids: unknown = JSON.parse(await text(`/block/${hash}/txids`));
    if (!Array.isArray(ids) || !ids.every((t) => typeof t === "string" && /^[0-9a-f]{64}$/.test(t)))
      throw new Error(`bad txids at ${height}`);
    return ids as string[];
  };

  /** The appointments a block's transactions breach, claimed by this process, and their justice broadcast. */
  const lookAt = async (db: SqlDb, txids: readonly string[]): Promise<string[]> => {
    if (txids.length === 0) return [];
    const byLocator = new Map<string, Uint8Array>();
    for (const t of txids) {
      const internal = internalTxid(t);
      byLocator.set(hex.encode(internal.slice(0, 16)), internal);
    }
    const found = await db.query<{ user_key: string; locator: string; blob: Uint8Array }>(
      "SELECT user_key, locator, blob FROM tower_appointments WHERE locator = ANY($1::char(32)[])",
      [[...byLocator.keys()]],
    );
    const sent: string[] = [];
    for (const row of found.rows) {
      const txid = byLocator.get(row.locator)!;
      const justice = decryptJustice(new Uint8Array(row.blob), txid);
      if (!justice) continue;
      const commitment = hex.encode(txid.slice().reverse());
      // One process claims a breach; another watching the same block finds it claimed.
      const claim = await db.query(
        "INSERT INTO tower_breaches (user_key, locator, commitment_txid, claimed_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [row.user_key, row.locator, commitment, Date.now()],
      );
      if (claim.affected !== 1) continue;
      try {
        const justiceTxid = (await text("/tx", { method: "POST", body: hex.encode(justice) })).trim();
        await db.query("UPDATE tower_breaches SET justice_txid=$1 WHERE user_key=$2 AND locator=$3", [
          justiceTxid,
          row.user_key,
          row.locator,
        ]);
        sent.push(justiceTxid);
        log(`breach of ${commitment}: justice ${justiceTxid} broadcast`);
      } catch (e) {
        // Given up to the next block: the claim goes so that this or another process tries again.
        log(`justice for ${commitment} refused: ${String(e)}`);
        await db.query(
          "DELETE FROM tower_breaches WHERE user_key=$1 AND locator=$2 AND justice_txid IS NULL",
          [row.user_key, row.locator],
        );
      }
    }
    return sent;
  };

  let checking: Promise<string[]> | null = null;
  const checkOnce = async (): Promise<string[]> => {
    const db = await open();
    const tip = Number((await text("/blocks/tip/height")).trim());
    if (!Number.isSafeInteger(tip) || tip < 0) throw new Error("bad tip height");
    const row = await db.query<{ height: number }>("SELECT height FROM tower_state WHERE name='height'");
    const last = row.rows[0] ? Number(row.rows[0].height) : tip - 1;
    const sent: string[] = [];
    for (let h = Math.max(last + 1, tip - maxCatchUp + 1); h <= tip; h++) {
      sent.push(...(await lookAt(db, await txidsOf(h))));
      await db.query(
        "INSERT INTO tower_state (name, height) VALUES ('height', $1) ON CONFLICT (name) DO UPDATE SET height = GREATEST(tower_state.height, $1)",
        [h],
      );
    }
    return sent;
  };
  const check = () => {
    watch();
    checking ??= checkOnce().finally(() => {
      checking = null;
    });
    return checking;
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  const watch = () => {
    if (timer || stopped || (opts.pollMs ?? 0) <= 0) return;
    timer = setInterval(() => void check().catch((e) => log(`block check: ${String(e)}`)), opts.pollMs);
  };

  const store = async (body: string): Promise<{ stored: true }> => {
    let parsed: unknown;
    try {
      parsed = parseJson(body);
    } catch {
      throw new HttpError(400, "The body is not JSON");
    }
    const a = readAppointment(parsed);
    if (!a.ok) throw new HttpError(a.reason === "bad signature" ? 401 : 400, a.reason);
    const db = await open();
    // Blocks are looked at from the first appointment on.
    if (!timer) void check().catch((e) => log(`block check: ${String(e)}`));
    const locator = hex.encode(a.locator);
    return db.transaction(async (tx) => {
      const n = await tx.query<{ n: string | number }>(
        "SELECT count(*) AS n FROM tower_appointments WHERE user_key=$1",
        [a.user],
      );
      if (Number(n.rows[0]?.n ?? 0) >= maxPerUser)
        throw new HttpError(429, `At most ${maxPerUser} appointments per wallet`);
      const r = await tx.query(
        "INSERT INTO tower_appointments (user_key, locator, blob, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [a.user, locator, a.blob, Date.now()],
      );
      if (r.affected !== 1) throw new HttpError(409, "That appointment is already stored");
      return { stored: true as const };
    });
  };

  return {
    routes: [
      ["POST", /^\/tower\/appointment$/, async (_m, body) => ({ json: await store(body) })],
      [
        "GET",
        /^\/tower\/info$/,
        async () => {
          const db = await open();
          const row = await db.query<{ height: number }>(
            "SELECT height FROM tower_state WHERE name='height'",
          );
          return {
            json: {
              appointments_max: maxPerUser,
              blob_max: MAX_BLOB_BYTES,
              height: row.rows[0] ? Number(row.rows[0].height) : null,
            },
          };
        },
      ],
    ],
    check,
    count: async () => {
      const r = await (await open()).query<{ n: string | number }>(
        "SELECT count(*) AS n FROM tower_appointments",
      );
      return Number(r.rows[0]?.n ?? 0);
    },
    stop: () => {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
};
