/**
 * Who holds which lightning-address name, and where their payments go while their wallet is not reachable:
 * in memory for the local world, in the services' SQL database when deployed, so every `services` process
 * on one PostgreSQL sees a name reserved through any of them (the database, not our code, decides a race).
 */
import { type SqlDb, tablesOnFirstUse } from "../storage/db";

/** Where payments go while the member's wallet is not reachable: a mint and the member's nostr key. */
export interface Fallback {
  readonly mint: string;
  readonly pubkey: string;
}

export interface Reservation {
  readonly name: string;
  readonly fallback: Fallback | null;
}

export interface NameBook {
  /** The member holding `name`, or null. */
  readonly ownerOf: (name: string) => Promise<string | null>;
  /** The name `pubkey` holds and its fallback, or null. */
  readonly reservationOf: (pubkey: string) => Promise<Reservation | null>;
  /** Gives `name` to `pubkey` (its old name released): false, and nothing changed, when another holds it. */
  readonly reserve: (pubkey: string, name: string, fallback: Fallback | null) => Promise<boolean>;
}

export const memoryNameBook = (): NameBook => {
  const owners = new Map<string, string>();
  const held = new Map<string, Reservation>();
  return {
    ownerOf: async (name) => owners.get(name) ?? null,
    reservationOf: async (pubkey) => held.get(pubkey) ?? null,
    reserve: async (pubkey, name, fallback) => {
      const owner = owners.get(name);
      if (owner && owner !== pubkey) return false;
      const old = held.get(pubkey);
      if (old) owners.delete(old.name);
      owners.set(name, pubkey);
      held.set(pubkey, { name, fallback });
      return true;
    },
  };
};

const SCHEMA = `CREATE TABLE IF NOT EXISTS hermes_names (
  name character varying(64) PRIMARY KEY,
  pubkey character(64) NOT NULL UNIQUE,
  mint character varying(300) NULL,
  fallback_pubkey character(64) NULL
)`;

class Taken extends Error {}

type Row = { name: string; mint: string | null; fallback_pubkey: string | null };

/** The name book in the services' database (its table made on first use). */
export const sqlNameBook = (db: () => Promise<SqlDb>): NameBook => {
  const open = tablesOnFirstUse(db, [SCHEMA]);
  return {
    ownerOf: async (name) => {
      const r = await (await open()).query<{ pubkey: string }>(
        "SELECT pubkey FROM hermes_names WHERE name=$1",
        [name],
      );
      return r.rows[0]?.pubkey ?? null;
    },
    reservationOf: async (pubkey) => {
      const r = await (await open()).query<Row>(
        "SELECT name, mint, fallback_pubkey FROM hermes_names WHERE pubkey=$1",
        [pubkey],
      );
      const row = r.rows[0];
      if (!row) return null;
      const fallback =
        row.mint !== null && row.fallback_pubkey !== null
          ? { mint: row.mint, pubkey: row.fallback_pubkey }
          : null;
      return { name: row.name, fallback };
    },
    reserve: async (pubkey, name, fallback) => {
      const d = await open();
      try {
        await d.transaction(async (tx) => {
          await tx.query("DELETE FROM hermes_names WHERE pubkey=$1 AND name<>$2", [pubkey, name]);
          const r = await tx.query(
            `INSERT INTO hermes_names (name, pubkey, mint, fallback_pubkey) VALUES ($1, $2, $3, $4)
             ON CONFLICT (name) DO UPDATE SET mint=EXCLUDED.mint, fallback_pubkey=EXCLUDED.fallback_pubkey
             WHERE hermes_names.pubkey=EXCLUDED.pubkey`,
            [name, pubkey, fallback?.mint ?? null, fallback?.pubkey ?? null],
          );
          if (r.affected === 0) throw new Taken();
        });
        return true;
      } catch (e) {
        if (e instanceof Taken) return false;
        throw e;
      }
    },
  };
};
