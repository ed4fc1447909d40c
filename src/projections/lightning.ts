import type { ChannelSnapshot } from "../events/types";
import { patchEntry, projection } from "./projection";
import { msatToSatsUp } from "../engine/amount";

export interface Invoice {
  readonly paymentHash: string;
  readonly bolt11: string;
  readonly amountMsat: bigint | null;
  readonly description: string;
  readonly labels: readonly string[];
  /** Unix seconds. */
  readonly expiresAt: number;
  readonly createdAt: number;
  /** What arrived, once paid. */
  readonly paidMsat: bigint | null;
  readonly paidAt: number | null;
  /** The last payment refused because the LSP kept more than it promised (it went back to the payer). */
  readonly refused: {
    readonly skimmedMsat: bigint;
    readonly promisedMsat: bigint | null;
    readonly at: number;
  } | null;
  /** What the LSP kept of the payment for opening a channel just in time (0 when it kept nothing). */
  readonly lspFeeMsat: bigint;
  /** The channel the LSP opened to deliver this payment, or null. */
  readonly channelId: string | null;
}

export type OutgoingStatus = "pending" | "succeeded" | "failed";

export interface OutgoingPayment {
  readonly paymentId: string;
  readonly paymentHash: string | null;
  readonly destination: string;
  readonly bolt11: string | null;
  readonly amountMsat: bigint;
  readonly feeMsat: bigint;
  readonly labels: readonly string[];
  readonly status: OutgoingStatus;
  readonly reason: string | null;
  readonly preimage: string | null;
  /** The hop count of each part that arrived (one for a payment over one path). */
  readonly paths: readonly number[];
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

export interface ChannelOpen {
  readonly channelId: string;
  readonly peer: string;
  readonly outpoint: string;
  readonly capacitySats: bigint;
  readonly feeSats: bigint;
  readonly isOutbound: boolean;
  readonly labels: readonly string[];
  readonly at: number;
  /** What the LSP kept for opening this channel to us just in time (0 for other channels). */
  readonly lspFeeMsat: bigint;
  /** The payment (its hash) this channel was opened just in time to deliver, or null. */
  readonly forPayment: string | null;
}

export interface ChannelClose {
  readonly channelId: string;
  readonly peer: string;
  readonly outpoint: string | null;
  readonly reason: string;
  readonly capacitySats: bigint | null;
  readonly balanceSats: bigint;
  readonly at: number;
}

export interface LightningState {
  readonly invoices: Map<string, Invoice>;
  /** Payments received without an invoice of ours (keysend), by payment hash. */
  readonly spontaneous: Map<string, { amountMsat: bigint; at: number }>;
  readonly payments: Map<string, OutgoingPayment>;
  readonly opens: Map<string, ChannelOpen>;
  readonly closes: Map<string, ChannelClose>;
  channels: readonly ChannelSnapshot[];
  /** Closed channels whose outputs were swept back to the on-chain wallet. */
  readonly swept: Set<string>;
  /** What sweeps of one closed channel alone brought back, by channel. */
  readonly sweptSats: Map<string, bigint>;
  /**
   * Channels whose partner published a revoked state (the wallet takes the whole channel): what the channel's
   * outputs bring back, and when it was seen.
   */
  readonly breaches: Map<string, { readonly claimableSats: bigint; readonly at: number }>;
  /** LSP fees of our wrapped invoices, by payment hash, until the payment arrives. */
  readonly lspFees: Map<string, { readonly feeMsat: bigint; readonly lsp: string; readonly at: number }>;
  /** Channel opens asked for whose funding transaction is not out yet, by request id (oldest first). */
  readonly requestedOpens: Map<
    string,
    { readonly peer: string; readonly amountSats: bigint; readonly at: number }
  >;
  /** Opens a stop cut short before their funding went out (nothing was spent), as they were asked for. */
  readonly interruptedOpens: { readonly peer: string; readonly amountSats: bigint; readonly at: number }[];
}

/** Why a payment to an invoice was refused, in the catalogue's English. */
export const refusalText = (r: {
  readonly skimmedMsat: bigint;
  readonly promisedMsat: bigint | null;
}): string =>
  `The LSP kept ${msatToSatsUp(r.skimmedMsat)} sats of the payment, more than the ${msatToSatsUp(
    r.promisedMsat ?? 0n,
  )} sats it promised: the payment was refused and went back to the payer.`;

/** Invoices, payments both ways, channel opens and closes, and the latest channel list. */
/** The oldest open the owner asked of `peer` is answered (its funding went out, or it failed): it leaves the list. */
const answerOldestOpen = (s: LightningState, peer: string): void => {
  for (const [id, open] of s.requestedOpens)
    if (open.peer === peer) {
      s.requestedOpens.delete(id);
      return;
    }
};

export const lightningProjection = projection<LightningState, LightningState>({
  name: "lightning",
  initial: () => ({
    invoices: new Map(),
    spontaneous: new Map(),
    payments: new Map(),
    opens: new Map(),
    closes: new Map(),
    channels: [],
    swept: new Set(),
    sweptSats: new Map(),
    breaches: new Map(),
    lspFees: new Map(),
    requestedOpens: new Map(),
    interruptedOpens: [],
  }),
  apply: (s, e) => {
    switch (e.type) {
      case "ln.invoice_created": {
        const p = e.payload;
        // A payment to this invoice already reported (a restored node's replay folded before the log that
        // made the invoice came back) is the invoice's payment: one payment, one row.
        const early = s.spontaneous.get(p.payment_hash);
        s.spontaneous.delete(p.payment_hash);
        const known = s.invoices.get(p.payment_hash);
        s.invoices.set(p.payment_hash, {
          paymentHash: p.payment_hash,
          bolt11: p.bolt11,
          amountMsat: p.amount_msat === null ? null : BigInt(p.amount_msat),
          description: p.description,
          labels: p.labels,
          expiresAt: p.expires_at,
          createdAt: e.at,
          paidMsat: known?.paidMsat ?? early?.amountMsat ?? null,
          paidAt: known?.paidAt ?? early?.at ?? null,
          refused: known?.refused ?? null,
          lspFeeMsat: known?.lspFeeMsat ?? 0n,
          channelId: known?.channelId ?? null,
        });
        return s;
      }
      case "ln.payment_refused": {
        const p = e.payload;
        patchEntry(s.invoices, p.payment_hash, (i) => ({
          ...i,
          refused: {
            skimmedMsat: BigInt(p.skimmed_msat),
            promisedMsat: p.promised_msat === null ? null : BigInt(p.promised_msat),
            at: e.at,
          },
        }));
        return s;
      }
      case "ln.lsp_fee":
        s.lspFees.set(e.payload.payment_hash, {
          feeMsat: BigInt(e.payload.fee_msat),
          lsp: e.payload.lsp,
          at: e.at,
        });
        return s;
      case "ln.payment_received": {
        const p = e.payload;
        const amountMsat = BigInt(p.amount_msat);
        const fee = s.lspFees.get(p.payment_hash);
        if (fee !== undefined) {
          s.lspFees.delete(p.payment_hash);
          // The LSP opened its channel to us just before paying: its newest open since the request, not
          // yet charged. None when the LSP delivered over a channel it had already.
          const open = [...s.opens.values()]
            .filter((o) => !o.isOutbound && o.peer === fee.lsp && o.at >= fee.at && o.lspFeeMsat === 0n)
            .sort((a, b) => b.at - a.at)[0];
          if (open)
            s.opens.set(open.channelId, { ...open, lspFeeMsat: fee.feeMsat, forPayment: p.payment_hash });
          // The payer paid the fee too; the owner got what arrived, after the LSP kept its fee.
          patchEntry(s.invoices, p.payment_hash, (i) => ({
            ...i,
            lspFeeMsat: fee.feeMsat,
            channelId: open?.channelId ?? null,
          }));
        }
        // A payment is known by its hash, whichever device or replay reported it: a node reports a claim
        // again after a restart or a restore on another device. The earliest report stands, whatever order
        // the logs were merged in, so every device folds the same row.
        if (s.invoices.has(p.payment_hash)) {
          patchEntry(s.invoices, p.payment_hash, (i) =>
            i.paidAt === null || e.at < i.paidAt ? { ...i, paidMsat: amountMsat, paidAt: e.at } : i,
          );
        } else {
          const known = s.spontaneous.get(p.payment_hash);
          if (!known || e.at < known.at) s.spontaneous.set(p.payment_hash, { amountMsat, at: e.at });
        }
        return s;
      }
      case "ln.payment_started": {
        const p = e.payload;
        s.payments.set(p.payment_id, {
          paymentId: p.payment_id,
          paymentHash: p.payment_hash,
          destination: p.destination,
          bolt11: p.bolt11,
          amountMsat: BigInt(p.amount_msat),
          feeMsat: 0n,
          labels: p.labels,
          status: "pending",
          reason: null,
          preimage: null,
          paths: [],
          startedAt: e.at,
          finishedAt: null,
        });
        return s;
      }
      case "ln.payment_sent": {
        const p = e.payload;
        // Reported again by a restored node: the earliest report stands.
        patchEntry(s.payments, p.payment_id, (x) =>
          x.status === "succeeded" && (x.finishedAt === null || x.finishedAt <= e.at)
            ? x
            : {
                ...x,
                paymentHash: p.payment_hash,
                status: "succeeded" as const,
                feeMsat: BigInt(p.fee_msat),
                preimage: p.preimage,
                finishedAt: e.at,
              },
        );
        return s;
      }
      case "ln.payment_path_succeeded": {
        const p = e.payload;
        patchEntry(s.payments, p.payment_id, (x) => ({ ...x, paths: [...x.paths, p.hops] }));
        return s;
      }
      case "ln.payment_failed": {
        const p = e.payload;
        patchEntry(s.payments, p.payment_id, (x) => ({
          ...x,
          status: "failed" as const,
          reason: p.reason,
          finishedAt: e.at,
        }));
        return s;
      }
      case "ln.open_requested": {
        const p = e.payload;
        s.requestedOpens.set(p.request_id, { peer: p.peer, amountSats: BigInt(p.amount_sats), at: e.at });
        return s;
      }
      case "ln.open_interrupted": {
        const open = s.requestedOpens.get(e.payload.request_id);
        if (open) s.interruptedOpens.push(open);
        s.requestedOpens.delete(e.payload.request_id);
        return s;
      }
      case "ln.channel_pending": {
        const p = e.payload;
        // The oldest open asked of this peer is the one whose funding went out.
        if (p.is_outbound) answerOldestOpen(s, p.peer);
        s.opens.set(p.channel_id, {
          channelId: p.channel_id,
          peer: p.peer,
          outpoint: p.outpoint,
          capacitySats: BigInt(p.capacity_sats),
          feeSats: BigInt(p.fee_sats),
          isOutbound: p.is_outbound,
          labels: p.labels,
          at: e.at,
          lspFeeMsat: 0n,
          forPayment: null,
        });
        return s;
      }
      case "ln.channel_closed": {
        const p = e.payload;
        // A channel closed before it was funded: the open asked of this peer failed (the owner was told).
        if (p.outpoint === null) answerOldestOpen(s, p.peer);
        s.closes.set(p.channel_id, {
          channelId: p.channel_id,
          peer: p.peer,
          outpoint: p.outpoint,
          reason: p.reason,
          capacitySats: p.capacity_sats === null ? null : BigInt(p.capacity_sats),
          balanceSats: BigInt(p.balance_sats),
          at: e.at,
        });
        return s;
      }
      case "ln.outputs_swept": {
        const ids = e.payload.channel_ids;
        const only = ids.length === 1 ? ids[0]! : null;
        if (only !== null) s.sweptSats.set(only, (s.sweptSats.get(only) ?? 0n) + BigInt(e.payload.sats));
        // A punished partner's side comes home a sweep after ours: the channel is home once nothing is left.
        const home = (e.payload.claims_left_sats ?? "0") === "0";
        for (const id of home ? [...ids, ...s.sweptSats.keys()] : ids)
          if (home || !s.breaches.has(id)) s.swept.add(id);
        return s;
      }
      case "ln.channel_breached":
        // Seen again after a restart: told once.
        if (!s.breaches.has(e.payload.channel_id)) {
          s.breaches.set(e.payload.channel_id, {
            claimableSats: BigInt(e.payload.claimable_sats),
            at: e.at,
          });
          // A part swept before the breach was seen (the watchtower's take, found on the chain at start) is
          // not all of it: the channel is home at the next sweep that leaves nothing to claim.
          s.swept.delete(e.payload.channel_id);
        }
        return s;
      case "ln.channels_changed":
        s.channels = e.payload.channels;
        return s;
      default:
        return s;
    }
  },
  view: (s) => s,
});

/**
 * Whether a channel's funding never reached the chain (the on-chain log has the transaction as dropped): its
 * coins are still the owner's on-chain, so the channel holds nothing of theirs. See `fundingGoneIn`.
 */
export type FundingGone = (outpoint: string | null) => boolean;

/**
 * Ours across the open channels (ready: their funding confirmed, the channel usable): what we can send plus
 * the reserves that come back when a channel closes. A channel still opening counts in `lightningPending`
 * instead; one whose funding never reached the chain counts nothing: its coins are counted on-chain.
 */
export const lightningBalance = (
  s: Pick<LightningState, "channels">,
  gone: FundingGone = () => false,
): bigint =>
  s.channels.reduce(
    (sum, c) => (c.is_ready && !gone(c.outpoint) ? sum + BigInt(c.balance) + BigInt(c.reserve) : sum),
    0n,
  );

/** Ours in channels still opening (their funding waits for confirmations): the owner's, but not spendable yet. */
export const lightningPending = (
  s: Pick<LightningState, "channels">,
  gone: FundingGone = () => false,
): bigint =>
  s.channels.reduce(
    (sum, c) => (!c.is_ready && !gone(c.outpoint) ? sum + BigInt(c.balance) + BigInt(c.reserve) : sum),
    0n,
  );

/**
 * What one channel lets leave in a payment now: LDK's limit for the next payment, which keeps the channel
 * reserve and the commitment fee back (a snapshot from before it was recorded: what we could send). A
 * channel still opening lets nothing leave.
 */
export const channelSendable = (c: ChannelSnapshot): bigint =>
  c.is_ready ? BigInt(c.sendable ?? c.balance) : 0n;

/** What can leave over lightning now, across the open channels: the most a payment may be (Send's "up to"). */
export const lightningSendable = (
  s: Pick<LightningState, "channels">,
  gone: FundingGone = () => false,
): bigint => s.channels.reduce((sum, c) => (gone(c.outpoint) ? sum : sum + channelSendable(c)), 0n);

/**
 * Balances of closed channels not yet back in the on-chain wallet. A channel closed before it was funded
 * (no funding output, or one that never reached the chain) has nothing to bring back.
 */
export const closingBalance = (s: LightningState, gone: FundingGone = () => false): bigint => {
  let closing = 0n;
  for (const c of s.closes.values())
    if (!s.swept.has(c.channelId) && c.outpoint !== null && !gone(c.outpoint)) {
      // A partner that cheated loses its side too: the whole channel is on its way, less what came already.
      const coming =
        (s.breaches.get(c.channelId)?.claimableSats ?? c.balanceSats) - (s.sweptSats.get(c.channelId) ?? 0n);
      if (coming > 0n) closing += coming;
    }
  return closing;
};

/** Funding transactions of our channel opens: activity shows them as ChannelOpen, not as on-chain sends. */
export const fundingTxids = (s: LightningState): Set<string> =>
  new Set([...s.opens.values()].map((o) => o.outpoint.split(":")[0]!));
