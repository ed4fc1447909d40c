import {
  type ChannelClose,
  type ChannelOpen,
  fundingTxids,
  type LightningState,
  refusalText,
} from "./lightning";
import type { EcashState } from "./ecash";
import { netOf, type OnchainState, type OnchainTx } from "./onchain";
import { msatToSatsUp } from "../engine/amount";

/** `ChannelPenalty`: a close in which the partner published a revoked state and the wallet took the whole channel. */
export type ActivityKind =
  | "Lightning"
  | "OnChain"
  | "ChannelOpen"
  | "ChannelClose"
  | "ChannelPenalty"
  | "Ecash";

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
    // A dropped transaction is over, not pending: it is dated when the wallet found it gone.
    last_updated: t.dropped ? Math.floor((t.droppedAt ?? t.seenAt) / 1000) : (t.confirmation?.blockTime ?? 0),
    privacy_level: "NotAvailable",
    seen_at: Math.floor(t.seenAt / 1000),
    dropped: t.dropped,
  };
};

/** A channel open whose funding never reached the chain: it never opened and nothing was spent. */
export const neverOpened = (item: ActivityItem): boolean => item.kind === "ChannelOpen" && item.dropped;

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

const secs = (ms: number) => Math.floor(ms / 1000);
const sats = (msat: bigint) => msat / 1000n;

const lightningItems = (
  ln: LightningState,
  onchain: OnchainState,
  labels: { readonly [id: string]: readonly string[] },
): ActivityItem[] => {
  const items: ActivityItem[] = [];
  const base = { contacts: [], privacy_level: "NotAvailable" as const, dropped: false };
  for (const i of ln.invoices.values()) {
    if (i.paidMsat === null || i.paidAt === null) continue;
    items.push({
      ...base,
      id: i.paymentHash,
      kind: "Lightning",
      labels: [...new Set([...i.labels, ...(labels[i.paymentHash] ?? [])])],
      amount_sats: sats(i.paidMsat),
      inbound: true,
      last_updated: secs(i.paidAt),
      seen_at: secs(i.createdAt),
    });
  }
  for (const [hash, r] of ln.spontaneous) {
    items.push({
      ...base,
      id: hash,
      kind: "Lightning",
      labels: labels[hash] ?? [],
      amount_sats: sats(r.amountMsat),
      inbound: true,
      last_updated: secs(r.at),
      seen_at: secs(r.at),
    });
  }
  for (const p of ln.payments.values()) {
    if (p.status === "failed") continue;
    const id = p.paymentHash ?? p.paymentId;
    items.push({
      ...base,
      id,
      kind: "Lightning",
      labels: [...new Set([...p.labels, ...(labels[id] ?? [])])],
      amount_sats: sats(p.amountMsat),
      inbound: false,
      last_updated: p.finishedAt === null ? 0 : secs(p.finishedAt),
      seen_at: secs(p.startedAt),
    });
  }
  for (const o of ln.opens.values()) {
    // A channel opened just in time for a payment shows as that payment's row, its fee among the details.
    if (o.forPayment !== null) continue;
    const funding = onchain.txs.get(o.outpoint.split(":")[0]!);
    items.push({
      ...base,
      id: o.channelId,
      kind: "ChannelOpen",
      labels: [...new Set([...o.labels, ...(labels[o.channelId] ?? [])])],
      amount_sats: o.capacitySats,
      inbound: !o.isOutbound,
      // Pending until the funding transaction confirms.
      last_updated: funding?.dropped
        ? secs(funding.droppedAt ?? funding.seenAt)
        : (funding?.confirmation?.blockTime ?? (o.isOutbound ? 0 : secs(o.at))),
      seen_at: secs(o.at),
      // Its funding never reached the chain: the channel never opened, the coins stayed on-chain.
      dropped: funding?.dropped ?? false,
    });
  }
  for (const c of ln.closes.values()) {
    const breach = ln.breaches.get(c.channelId);
    items.push({
      ...base,
      id: closeId(c.channelId),
      kind: breach ? "ChannelPenalty" : "ChannelClose",
      labels: labels[c.channelId] ?? [],
      // A punished partner's side came too: what was swept back, or what is on its way.
      amount_sats: breach ? penaltySats(ln, c.channelId, breach.claimableSats) : c.balanceSats,
      inbound: true,
      last_updated: secs(c.at),
      seen_at: secs(c.at),
    });
  }
  return items;
};

/** What a punished partner's channel brings home: what was swept once all of it is, until then what is coming. */
export const penaltySats = (s: LightningState, channelId: string, claimableSats: bigint): bigint =>
  s.swept.has(channelId) ? (s.sweptSats.get(channelId) ?? claimableSats) : claimableSats;

/** A channel's close row has its own id, so the open and the close of one channel never collide. */
export const closeId = (channelId: string): string => `close-${channelId}`;

export const activityItems = (
  onchain: OnchainState,
  labels: { readonly [id: string]: readonly string[] },
  lightning?: LightningState,
  ecash?: EcashState,
): ActivityItem[] => {
  const funding = lightning ? fundingTxids(lightning) : new Set<string>();
  return [
    ...[...onchain.txs.values()]
      .filter((t) => !funding.has(t.txid))
      .map((t) => onchainItem(t, labels[t.txid] ?? [])),
    ...(lightning ? lightningItems(lightning, onchain, labels) : []),
    ...(ecash ? ecashItems(ecash, labels) : []),
  ].sort(newestFirst);
};

/**
 * Ecash moves, labelled with their own labels (a payer's note) and who holds the ecash (custody stays
 * visible in the history too).
 */
const ecashItems = (
  ecash: EcashState,
  labels: { readonly [id: string]: readonly string[] },
): ActivityItem[] =>
  ecash.moves.map((m) => ({
    id: m.id,
    kind: "Ecash",
    labels: [...(labels[m.id] ?? []), ecash.custodians.get(m.mint)?.name ?? m.mint],
    contacts: [],
    amount_sats: m.amount,
    inbound: m.inbound,
    last_updated: Math.floor(m.at / 1000),
    privacy_level: "NotAvailable",
    seen_at: Math.floor(m.at / 1000),
    dropped: false,
  }));

/** Details behind a Lightning row. */
export interface LightningDetails {
  readonly payment_hash: string;
  readonly inbound: boolean;
  readonly amount_sats: bigint;
  readonly fee_sats: bigint;
  readonly status: "pending" | "succeeded" | "failed";
  readonly description: string | null;
  readonly bolt11: string | null;
  readonly preimage: string | null;
  readonly destination: string | null;
  readonly reason: string | null;
  /** Of a payment sent: how many channels each part crossed (several parts when it was split). */
  readonly hops: readonly number[];
  readonly at: number;
}

export const lightningDetails = (ln: LightningState, id: string): LightningDetails | null => {
  const i = ln.invoices.get(id);
  if (i)
    return {
      payment_hash: i.paymentHash,
      inbound: true,
      amount_sats: sats(i.paidMsat ?? i.amountMsat ?? 0n),
      // The only fee a receive costs the owner: what the LSP kept for opening a channel for it.
      fee_sats: msatToSatsUp(i.lspFeeMsat),
      status: i.paidMsat !== null ? "succeeded" : i.refused ? "failed" : "pending",
      description: i.description,
      bolt11: i.bolt11,
      preimage: null,
      destination: null,
      reason: i.paidMsat === null && i.refused ? refusalText(i.refused) : null,
      hops: [],
      at: secs(i.paidAt ?? i.createdAt),
    };
  const r = ln.spontaneous.get(id);
  if (r)
    return {
      payment_hash: id,
      inbound: true,
      amount_sats: sats(r.amountMsat),
      fee_sats: 0n,
      status: "succeeded",
      description: null,
      bolt11: null,
      preimage: null,
      destination: null,
      reason: null,
      hops: [],
      at: secs(r.at),
    };
  const p = [...ln.payments.values()].find((x) => x.paymentHash === id || x.paymentId === id);
  if (!p) return null;
  return {
    payment_hash: p.paymentHash ?? p.paymentId,
    inbound: false,
    amount_sats: sats(p.amountMsat),
    fee_sats: msatToSatsUp(p.feeMsat),
    status: p.status,
    description: null,
    bolt11: p.bolt11,
    preimage: p.preimage,
    destination: p.destination,
    reason: p.reason,
    hops: p.paths,
    at: secs(p.finishedAt ?? p.startedAt),
  };
};

/**
 * The fee a details modal shows for a row: what the owner paid. A payment received shows none of the
 * sender's fee (an on-chain sender's miner fee is theirs), only a fee the owner paid on it (an LSP's
 * channel setup fee); a close shows none.
 */
export const ownerFee = (item: ActivityItem, fee: bigint | null): bigint | null => {
  if (fee === null || item.kind === "ChannelClose" || item.kind === "ChannelPenalty") return null;
  if (!item.inbound) return fee;
  return item.kind === "OnChain" || fee === 0n ? null : fee;
};

/** Details behind a ChannelOpen or ChannelClose row. */
export interface ChannelDetails {
  readonly kind: "ChannelOpen" | "ChannelClose";
  /** The partner published a revoked state: the wallet takes the whole channel (`balance_sats` is what comes back). */
  readonly penalty: boolean;
  /** Swept back to the on-chain wallet already. */
  readonly swept: boolean;
  readonly channel_id: string;
  readonly peer: string;
  readonly outpoint: string | null;
  readonly txid: string | null;
  readonly capacity_sats: bigint | null;
  /** Ours in the channel now (open) or when it closed. */
  readonly balance_sats: bigint;
  readonly fee_sats: bigint;
  readonly confirmed: boolean;
  readonly reason: string | null;
  readonly at: number;
}

export const channelDetails = (
  ln: LightningState,
  onchain: OnchainState,
  id: string,
): ChannelDetails | null => {
  const close: ChannelClose | undefined = id.startsWith("close-") ? ln.closes.get(id.slice(6)) : undefined;
  if (close) {
    const breach = ln.breaches.get(close.channelId);
    return {
      kind: "ChannelClose",
      penalty: breach !== undefined,
      swept: ln.swept.has(close.channelId),
      channel_id: close.channelId,
      peer: close.peer,
      outpoint: close.outpoint,
      txid: close.outpoint?.split(":")[0] ?? null,
      capacity_sats: close.capacitySats,
      balance_sats: breach ? penaltySats(ln, close.channelId, breach.claimableSats) : close.balanceSats,
      fee_sats: 0n,
      confirmed: true,
      reason: close.reason,
      at: secs(close.at),
    };
  }
  const open: ChannelOpen | undefined = ln.opens.get(id);
  if (!open) return null;
  const txid = open.outpoint.split(":")[0]!;
  const funding = onchain.txs.get(txid);
  const now = ln.channels.find((c) => c.channel_id === id);
  return {
    kind: "ChannelOpen",
    penalty: false,
    swept: false,
    channel_id: open.channelId,
    peer: open.peer,
    outpoint: open.outpoint,
    txid,
    capacity_sats: open.capacitySats,
    balance_sats: now ? BigInt(now.balance) + BigInt(now.reserve) : 0n,
    fee_sats: open.feeSats + msatToSatsUp(open.lspFeeMsat),
    confirmed: funding?.confirmation != null || (now?.is_ready ?? false),
    reason: null,
    at: secs(funding?.confirmation?.blockTime ? funding.confirmation.blockTime * 1000 : open.at),
  };
};

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
