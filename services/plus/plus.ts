/**
 * Plus sold by the services (the same API as the world's, harness/plus.ts): members in the database's
 * `plus_members`, read by the lightning-address service of every process. The money goes to the operator's
 * own lightning wallet over wallet-connect (`PLUS_NWC`): it makes each invoice and says when it was paid, so
 * the services hold no channel of their own.
 *
 *   GET  /plus/plans                        [{id, amount_sat}]
 *   POST /plus/subscribe {plan_id, nwc}     (NIP-98) {invoice}: the operator wallet's invoice for the plan
 *   GET  /plus/subscription                 (NIP-98) {plan_id, timestamp, active}
 *
 * Renewal: once a member's period has ended (within the grace), one process claims the charge in the
 * database, has the operator's wallet make the invoice and the member's wallet-connect connection pay it. The
 * period moves on only for a payment proven made: the preimage the member's wallet answers hashes to the
 * invoice's payment hash, or the operator's wallet says the invoice was paid. A wallet that only says it paid
 * renews nothing.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { NWCClient } from "@getalby/sdk/nwc";
import { GRACE_S, nip98Signer, PERIOD_S, type Plan, parseNwc } from "./terms";
import type { SqlDb } from "../storage/db";
import { HttpError, parseJson, type RouteTable } from "../http";

export interface PlusConfig {
  /** The operator's wallet-connect URI: makes invoices and looks them up. */
  readonly operatorNwc: string;
  readonly plans: readonly Plan[];
}

/** How long one process holds a renewal it claimed before another may try it again. */
const CLAIM_S = 300;

interface Row {
  readonly plan_id: number;
  readonly nwc: string;
  readonly paid_until: string | number;
  readonly pending: string | null;
}

/** Runs `f` on a short-lived wallet-connect client of `uri`. */
const withNwc = async <T>(uri: string, f: (c: NWCClient) => Promise<T>): Promise<T> => {
  const client = new NWCClient({ nostrWalletConnectUrl: uri });
  try {
    return await f(client);
  } finally {
    client.close();
  }
};

export const startServicesPlus = (
  db: () => Promise<SqlDb>,
  config: PlusConfig,
  opts: { renewEveryMs?: number; now?: () => number } = {},
) => {
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const rowOf = async (pubkey: string): Promise<Row | null> =>
    (
      await (
        await db()
      ).query<Row>("SELECT plan_id, nwc, paid_until, pending FROM plus_members WHERE pubkey=$1", [pubkey])
    ).rows[0] ?? null;

  /** A pending subscribe invoice the operator's wallet says is paid starts (or extends) the period, once. */
  const settle = async (pubkey: string, row: Row): Promise<void> => {
    if (!row.pending) return;
    const tx = await withNwc(config.operatorNwc, (c) => c.lookupInvoice({ payment_hash: row.pending! }));
    if (tx.state !== "settled" && !(tx.settled_at > 0)) return;
    await (await db()).query(
      "UPDATE plus_members SET paid_until = GREATEST(paid_until, $3) + $4, pending = NULL WHERE pubkey=$1 AND pending=$2",
      [pubkey, row.pending, now(), PERIOD_S],
    );
  };

  const status = async (pubkey: string) => {
    let row = await rowOf(pubkey);
    if (row?.pending) {
      await settle(pubkey, row).catch(() => undefined);
      row = await rowOf(pubkey);
    }
    const paidUntil = Number(row?.paid_until ?? 0);
    return {
      plan_id: row && paidUntil > 0 ? row.plan_id : null,
      timestamp: paidUntil > 0 ? paidUntil : null,
      active: paidUntil > 0 && paidUntil + GRACE_S > now(),
    };
  };

  /** The invoice of `paymentHash` was paid: `preimage` is its own, or the operator's wallet says it was settled. */
  const proven = async (paymentHash: string, preimage: string | undefined): Promise<boolean> => {
    if (
      /^[0-9a-f]{64}$/i.test(preimage ?? "") &&
      hex.encode(sha256(hex.decode(preimage!.toLowerCase()))) === paymentHash
    )
      return true;
    const tx = await withNwc(config.operatorNwc, (c) => c.lookupInvoice({ payment_hash: paymentHash }));
    return tx.state === "settled" || tx.settled_at > 0;
  };

  const renewDue = async (): Promise<number> => {
    const d = await db();
    const due = await d.query<{ pubkey: string; plan_id: number; nwc: string; paid_until: string | number }>(
      "SELECT pubkey, plan_id, nwc, paid_until FROM plus_members WHERE paid_until > 0 AND paid_until <= $1 AND paid_until + $2 > $1 AND charging_until < $1",
      [now(), GRACE_S],
    );
    let done = 0;
    for (const m of due.rows) {
      const plan = config.plans.find((p) => p.id === m.plan_id);
      if (!plan) continue;
      // The claim names the period read: a process that read it before another renewed it claims nothing.
      const claimed = await d.query(
        "UPDATE plus_members SET charging_until = $2 WHERE pubkey=$1 AND charging_until < $3 AND paid_until = $4",
        [m.pubkey, now() + CLAIM_S, now(), m.paid_until],
      );
      if (claimed.affected !== 1) continue;
      try {
        const made = await withNwc(config.operatorNwc, (c) =>
          c.makeInvoice({ amount: plan.amount_sat * 1000, description: "Plus renewal" }),
        );
        const paid = await withNwc(m.nwc, (c) => c.payInvoice({ invoice: made.invoice }));
        if (!(await proven(made.payment_hash, paid.preimage))) throw new Error("not paid");
        await d.query(
          "UPDATE plus_members SET paid_until = paid_until + $2, charging_until = 0 WHERE pubkey=$1",
          [m.pubkey, PERIOD_S],
        );
        done++;
      } catch {
        // the member's wallet did not pay: tried again once the claim lapses, until the grace ends
      }
    }
    return done;
  };
  const timer = setInterval(() => void renewDue().catch(() => undefined), opts.renewEveryMs ?? 60_000);
  timer.unref?.();

  const routes: RouteTable = [
    ["GET", /^\/plus\/plans$/, () => ({ json: config.plans })],
    [
      "POST",
      /^\/plus\/subscribe$/,
      async (_m, body, headers) => {
        const pubkey = await nip98Signer("/plus/subscribe", "post", headers);
        const b = parseJson(body);
        const plan = config.plans.find((p) => p.id === b.plan_id);
        if (!plan) throw new HttpError(400, "Unknown plan");
        if (typeof b.nwc !== "string" || b.nwc.length > 1000) throw new HttpError(400, "nwc is required");
        if (parseNwc(b.nwc).pubkey !== pubkey) throw new HttpError(403, "The connection is not the signer's");
        const tx = await withNwc(config.operatorNwc, (c) =>
          c.makeInvoice({ amount: plan.amount_sat * 1000, description: "Plus" }),
        ).catch(() => {
          throw new HttpError(502, "The operator's wallet did not make an invoice");
        });
        await (await db()).query(
          `INSERT INTO plus_members (pubkey, plan_id, nwc, pending) VALUES ($1, $2, $3, $4)
           ON CONFLICT (pubkey) DO UPDATE SET plan_id = $2, nwc = $3, pending = $4`,
          [pubkey, plan.id, b.nwc, tx.payment_hash],
        );
        return { json: { invoice: tx.invoice } };
      },
    ],
    [
      "GET",
      /^\/plus\/subscription$/,
      async (_m, _body, headers) => ({
        json: await status(await nip98Signer("/plus/subscription", "get", headers)),
      }),
    ],
  ];
  return { routes, renewDue, stop: () => clearInterval(timer) };
};
