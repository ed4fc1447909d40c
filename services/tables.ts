/**
 * The services' own tables beside the storage server's, in the same database (PostgreSQL at `DATABASE_URL`,
 * else the embedded one): Plus members, read by the lightning-address service of every process, and the
 * feedback received. A member's row: the paid period's end (0 until the first invoice is paid), the subscribe
 * invoice still waiting (its payment hash), and until when a process holds its renewal (services/plus.ts).
 */
import type { FeedbackEntry } from "./feedback/feedback";
import type { Membership } from "./hermes/hermes";
import { GRACE_S } from "./plus/terms";
import { type SqlDb, tablesOnFirstUse } from "./storage/db";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS plus_members (
    pubkey character(64) PRIMARY KEY,
    plan_id integer NOT NULL,
    nwc character varying(1000) NOT NULL,
    paid_until bigint NOT NULL DEFAULT 0,
    pending character varying(64),
    charging_until bigint NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE IF NOT EXISTS feedback (
    id BIGSERIAL PRIMARY KEY,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
    entry jsonb NOT NULL
  )`,
];

/** Makes the tables once per process (two processes starting together may race: the loser tries again). */
export const servicesTables = (db: () => Promise<SqlDb>) => {
  const open = tablesOnFirstUse(db, SCHEMA);
  const memberOf = async (pubkey: string) => {
    const r = await (await open()).query<{ nwc: string; paid_until: string | number }>(
      "SELECT nwc, paid_until FROM plus_members WHERE pubkey=$1",
      [pubkey],
    );
    const row = r.rows[0];
    // A member stays one until the end of the paid period plus the grace (spec 1 subscription rule).
    return row && Number(row.paid_until) + GRACE_S > Math.floor(Date.now() / 1000) ? row : null;
  };
  const membership: Membership = {
    isMember: async (pubkey) => (await memberOf(pubkey)) !== null,
    nwcOf: async (pubkey) => (await memberOf(pubkey))?.nwc ?? null,
  };
  const keepFeedback = async (entry: FeedbackEntry) => {
    await (await open()).query("INSERT INTO feedback (entry) VALUES ($1)", [JSON.stringify(entry)]);
  };
  return { open, membership, keepFeedback };
};
