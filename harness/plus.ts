/**
 * The world's membership (Plus) service. A member is known by the key of the wallet-connect connection the
 * wallet gives it (the client key of the wallet's subscription connection, index 0); every request is
 * signed with that key (NIP-98 HTTP auth).
 *
 *   GET  /plus/plans                         [{id, amount_sat}]
 *   POST /plus/subscribe {plan_id, nwc}      {invoice}: a bolt11 of the world's node for the plan's price;
 *                                            once paid, the subscription runs until `timestamp` (seconds)
 *   GET  /plus/subscription                  {plan_id, timestamp, active} (null plan_id: not a member)
 *
 * Renewal: once a subscription's timestamp has passed, the service charges the plan's price through the
 * member's wallet-connect connection (`pay_invoice` with @getalby/sdk's NWC client over the world's relay)
 * and moves the timestamp on by a period. A member whose charge fails stays active until the timestamp plus
 * the 3-day grace, then lapses (spec 1 subscription rule).
 */
import { NWCClient } from "@getalby/sdk/nwc";
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { installRelaySocket } from "../services/nostr/socket";
import type { HarnessNode } from "./lightning";
import { HttpError, parseJson, type RouteTable } from "../services/http";
import { GRACE_S, isActive, nip98Signer, PERIOD_S, type Plan, parseNwc } from "../services/plus/terms";

export { GRACE_S, isActive, nip98Signer, PERIOD_S, type Plan, parseNwc };

// Node 20 has no global WebSocket: the relay connections use one that a stalled handshake cannot crash.
installRelaySocket();

interface Member {
  readonly pubkey: string;
  planId: number;
  nwc: string;
  /** End of the paid period, seconds; null until the first invoice is paid. */
  timestamp: number | null;
  /** The subscribe invoice's payment hash, until it is paid. */
  pending: string | null;
  renewals: number;
  lastError: string | null;
}

export interface PlusService {
  readonly plans: readonly Plan[];
  readonly routes: RouteTable;
  /** The service's clock in seconds (tests move it on with `advance`). */
  readonly now: () => number;
  readonly advance: (seconds: number) => void;
  /** Charges every member whose period ended; answers how many charges went through. */
  readonly renewDue: () => Promise<number>;
  readonly member: (pubkey: string) => Readonly<Member> | null;
  /** Whether `pubkey` is a member in good standing now. */
  readonly isMember: (pubkey: string) => boolean;
  /** A member's wallet-connect URI (the subscription connection), while the member is active. */
  readonly nwcOf: (pubkey: string) => string | null;
  readonly stop: () => void;
}

export const startPlus = (
  node: HarnessNode,
  opts: { plans?: readonly Plan[]; renewEveryMs?: number } = {},
): PlusService => {
  const plans = opts.plans ?? [{ id: 1, amount_sat: 5_000 }];
  const members = new Map<string, Member>();
  let offset = 0;
  const now = () => Math.floor(Date.now() / 1000) + offset;

  const settle = (m: Member) => {
    if (m.pending && node.events.some((e) => e.type === "payment_received" && e.paymentHash === m.pending)) {
      m.pending = null;
      m.timestamp = Math.max(m.timestamp ?? 0, now()) + PERIOD_S;
    }
  };

  const charge = async (m: Member): Promise<boolean> => {
    const plan = plans.find((p) => p.id === m.planId);
    if (!plan) return false;
    const { bolt11, paymentHash } = node.node.createInvoice(
      BigInt(plan.amount_sat) * 1000n,
      `Plus renewal ${m.renewals + 1}`,
    );
    const client = new NWCClient({ nostrWalletConnectUrl: m.nwc });
    try {
      const paid = await client.payInvoice({ invoice: bolt11 });
      // Paid only when proven so: the preimage is the invoice's, or the node received the payment.
      const own =
        /^[0-9a-f]{64}$/i.test(paid.preimage) &&
        hex.encode(sha256(hex.decode(paid.preimage.toLowerCase()))) === paymentHash;
      const received = node.events.some(
        (e) => e.type === "payment_received" && e.paymentHash === paymentHash,
      );
      if (!own && !received) throw new Error("Not paid");
      m.timestamp = (m.timestamp ?? now()) + PERIOD_S;
      m.renewals++;
      m.lastError = null;
      return true;
    } catch (e) {
      m.lastError = (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      client.close();
    }
  };

  let renewing: Promise<number> | null = null;
  const renewDue = () => {
    renewing ??= (async () => {
      let done = 0;
      for (const m of members.values()) {
        settle(m);
        if (m.timestamp !== null && m.timestamp <= now() && isActive(m.timestamp, now()) && (await charge(m)))
          done++;
      }
      return done;
    })().finally(() => {
      renewing = null;
    });
    return renewing;
  };
  const timer = setInterval(() => void renewDue().catch(() => undefined), opts.renewEveryMs ?? 60_000);
  timer.unref?.();

  const status = (pubkey: string) => {
    const m = members.get(pubkey);
    if (m) settle(m);
    return {
      plan_id: m && m.timestamp !== null ? m.planId : null,
      timestamp: m?.timestamp ?? null,
      active: isActive(m?.timestamp ?? null, now()),
    };
  };

  const routes: RouteTable = [
    ["GET", /^\/plus\/plans$/, () => ({ json: plans })],
    [
      "POST",
      /^\/plus\/subscribe$/,
      async (_m, body, headers) => {
        const pubkey = await nip98Signer("/plus/subscribe", "post", headers);
        const b = parseJson(body);
        const plan = plans.find((p) => p.id === b.plan_id);
        if (!plan) throw new HttpError(400, "Unknown plan");
        if (typeof b.nwc !== "string" || b.nwc.length > 1000) throw new HttpError(400, "nwc is required");
        if (parseNwc(b.nwc).pubkey !== pubkey) throw new HttpError(403, "The connection is not the signer's");
        const { bolt11, paymentHash } = node.node.createInvoice(BigInt(plan.amount_sat) * 1000n, "Plus");
        const m = members.get(pubkey);
        if (m) {
          m.planId = plan.id;
          m.nwc = b.nwc;
          m.pending = paymentHash;
        } else
          members.set(pubkey, {
            pubkey,
            planId: plan.id,
            nwc: b.nwc,
            timestamp: null,
            pending: paymentHash,
            renewals: 0,
            lastError: null,
          });
        return { json: { invoice: bolt11 } };
      },
    ],
    [
      "GET",
      /^\/plus\/subscription$/,
      async (_m, _body, headers) => ({
        json: status(await nip98Signer("/plus/subscription", "get", headers)),
      }),
    ],
  ];

  return {
    plans,
    routes,
    now,
    advance: (s) => {
      offset += s;
    },
    renewDue,
    member: (pubkey) => {
      const m = members.get(pubkey);
      if (m) settle(m);
      return m ?? null;
    },
    isMember: (pubkey) => status(pubkey).active,
    nwcOf: (pubkey) => (status(pubkey).active ? (members.get(pubkey)?.nwc ?? null) : null),
    stop: () => clearInterval(timer),
  };
};
