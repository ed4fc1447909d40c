import { netOf, type OnchainState, type OnchainTx } from "./onchain";

export type ActivityKind = "Lightning" | "OnChain" | "ChannelOpen" | "ChannelClose";

/** An activity row (spec 1 §3). `last_updated` is unix seconds; 0 means pending. */
export interface ActivityItem {
  readonly id: string;
  readonly kind: ActivityKind;
  readonly labels: readonly string[];
  readonly contacts: readonly string[];
  readonly amount_sats: bigint;
  readonly inbound: boolean;
  readonly last_updated: number;
  readonly privacy_level: "Public" | "Private" | "Anonymous" | "NotAvailable";
  /** When the wallet first saw it (unix seconds); orders pending items and dates them in details. */
  readonly seen_at: number;
  readonly dropped: boolean;
}

/** Details behind an OnChain row, for its modal. */
export interface OnchainDetails {
  readonly txid: string;
  readonly fee: bigint;
  readonly received: bigint;
  readonly sent: bigint;
  readonly confirmed: boolean;
  readonly confirmation_time: number | null;
  readonly dropped: boolean;
  readonly replaced_by: string | null;
}

export const ACTIVITY_PAGE = 50;

const onchainItem = (t: OnchainTx, labels: readonly string[]): ActivityItem => {
  const net = netOf(t);
  // Outgoing: what left the wallet for the payee, the fee shown apart. Incoming: what arrived.
  const amount = t.outgoing ? -net - t.fee : net;
  return {
    id: t.txid,
    kind: "OnChain",
    labels: [...new Set([...t.labels, ...labels])],
    contacts: [],
    amount_sats: amount < 0n ? -amount : amount,
    inbound: !t.outgoing,
    last_updated: t.confirmation?.blockTime ?? 0,
    privacy_level: "NotAvailable",
    seen_at: Math.floor(t.seenAt / 1000),
    dropped: t.dropped,
  };
};

/** Pending first (newest first), then by time, newest first; ties by id so the order is total. */
const newestFirst = (a: ActivityItem, b: ActivityItem): number => {
  const pa = a.last_updated === 0 ? 1 : 0;
  const pb = b.last_updated === 0 ? 1 : 0;
  if (pa !== pb) return pb - pa;
  const ta = a.last_updated || a.seen_at;
  const tb = b.last_updated || b.seen_at;
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

export const activityItems = (
  onchain: OnchainState,
  labels: { readonly [id: string]: readonly string[] },
): ActivityItem[] =>
  [...onchain.txs.values()].map((t) => onchainItem(t, labels[t.txid] ?? [])).sort(newestFirst);

export const onchainDetails = (t: OnchainTx): OnchainDetails => ({
  txid: t.txid,
  fee: t.fee,
  received: t.received,
  sent: t.sent,
  confirmed: t.confirmation !== null,
  confirmation_time: t.confirmation?.blockTime ?? null,
  dropped: t.dropped,
  replaced_by: t.replacedBy,
});
