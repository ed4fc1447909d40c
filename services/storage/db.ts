/**
 * The storage server's SQL database: PostgreSQL compiled to wasm (PGlite, in memory or in a data directory) by default, a real
 * PostgreSQL when `DATABASE_URL` is set. Both answer the same SQL; this file is the little they differ in
 * (connections, transactions, how a bigint comes back) and vss-server's schema migrations.
 */
import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";

export interface Sql {
  /** Runs one statement; `affected` is the rows an INSERT/UPDATE/DELETE changed. */
  readonly query: <R = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ) => Promise<{ rows: R[]; affected: number }>;
}

export interface SqlDb extends Sql {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  readonly transaction: <T>(fn: (tx: Sql) => Promise<T>) => Promise<T>;
  readonly close: () => Promise<void>;
}

/**
 * The database `db` opens, once `schema`'s statements (each `CREATE ... IF NOT EXISTS`) have made a service's
 * tables beside the storage server's: made once per process, on the first call; a failed start is tried
 * again on the next. Two processes starting together may race to make a table: the loser's statement is
 * retried once.
 */
export const tablesOnFirstUse = (
  db: () => Promise<SqlDb>,
  schema: readonly string[],
): (() => Promise<SqlDb>) => {
  let ready: Promise<SqlDb> | null = null;
  return () => {
    ready ??= db().then(async (d) => {
      for (const stmt of schema) await d.query(stmt).catch(() => d.query(stmt));
      return d;
    });
    ready.catch(() => {
      ready = null;
    });
    return ready;
  };
};

/**
 * vss-server's migrations (rust/impls/src/migrations.rs), applied in order once per database; the
 * `vss_db_version` table records how many ran.
 */
export const MIGRATIONS: readonly string[] = [
  "CREATE TABLE vss_db_version (db_version INTEGER);",
  "INSERT INTO vss_db_version VALUES(1);",
  "CREATE TABLE vss_db_upgrades (upgrade_from INTEGER);",
  `CREATE TABLE IF NOT EXISTS vss_db (
    user_token character varying(120) NOT NULL CHECK (user_token <> ''),
    store_id character varying(120) NOT NULL,
    key character varying(600) NOT NULL,
    value bytea NULL,
    version bigint NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE,
    last_updated_at TIMESTAMP WITH TIME ZONE,
    PRIMARY KEY (user_token, store_id, key)
  );`,
  "ALTER TABLE vss_db DROP CONSTRAINT IF EXISTS vss_db_store_id_check;",
  "ALTER TABLE vss_db ADD COLUMN IF NOT EXISTS sort_order BIGSERIAL NOT NULL UNIQUE;",
  "CREATE INDEX IF NOT EXISTS idx_vss_db_sort_order ON vss_db (user_token, store_id, sort_order DESC) INCLUDE (key, version);",
];

export const migrate = async (db: SqlDb): Promise<void> => {
  await db.transaction(async (tx) => {
    const exists = await tx.query<{ t: string | null }>("SELECT to_regclass('vss_db_version')::text AS t");
    let from = 0;
    if (exists.rows[0]?.t) {
      const v = await tx.query<{ db_version: number }>("SELECT db_version FROM vss_db_version");
      from = Number(v.rows[0]?.db_version ?? 0);
    }
    if (from > MIGRATIONS.length) throw new Error("The storage database is newer than this server");
    if (from === MIGRATIONS.length) return;
    for (const stmt of MIGRATIONS.slice(from)) await tx.query(stmt);
    await tx.query("INSERT INTO vss_db_upgrades VALUES($1)", [from]);
    await tx.query("UPDATE vss_db_version SET db_version=$1", [MIGRATIONS.length]);
  });
};

const pgliteDb = (pg: PGlite): SqlDb => {
  const wrap = (q: Pick<PGlite, "query">): Sql => ({
    query: async <R>(text: string, params: unknown[] = []) => {
      const r = await q.query<R>(text, params);
      return { rows: r.rows, affected: r.affectedRows ?? 0 };
    },
  });
  return {
    kind: "pglite",
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
};

/** Connections each process holds to PostgreSQL at most. */
export const POOL_SIZE = 10;
/**
 * How long a query waits for one of them (pg's bound on the wait and on connecting). A busy process queues
 * its requests here: one answered late, within the wallet's own 30 s, beats one refused after 5 s as if the
 * database were down (at 5,000 wallets on a loaded machine, writes waited 6–16 s and 1 in 3 was refused).
 */
export const POOL_WAIT_MS = 25_000;

const postgresDb = async (url: string): Promise<SqlDb> => {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: POOL_WAIT_MS });
  pool.on("error", () => undefined);
  const wrap = (q: {
    query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>;
  }): Sql => ({
    query: async <R>(text: string, params: unknown[] = []) => {
      const r = await q.query(text, params);
      return { rows: r.rows as R[], affected: r.rowCount ?? 0 };
    },
  });
  return {
    kind: "postgres",
    ...wrap(pool),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const out = await fn(wrap(client));
        await client.query("COMMIT");
        return out;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
};

/**
 * Opens (and migrates) the database: PostgreSQL at `url` if given, else PGlite, kept in the directory
 * `dataDir` (made if missing) or, without one, in memory.
 */
export const openStorageDb = async (url?: string, dataDir?: string): Promise<SqlDb> => {
  let db: SqlDb;
  if (url) db = await postgresDb(url);
  else {
    const { PGlite } = await import("@electric-sql/pglite");
    if (dataDir) await mkdir(dataDir, { recursive: true });
    const pg = dataDir ? new PGlite(dataDir) : new PGlite();
    await pg.waitReady;
    db = pgliteDb(pg);
  }
  try {
    await migrate(db);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  return db;
};
