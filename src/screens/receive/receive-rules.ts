/** The receive screen's decisions (spec 1 §5, §9). */
import type { PaymentMethod } from "../../ui/amount-entry";

export type ReceiveFlavor = "unified" | "lightning" | "onchain";

/** A lightning receive's bounds as the LSP stated them (`GetReceiveLimits`); null where it said nothing. */
export interface LightningLimits {
  readonly channelMinSats: bigint | null;
  readonly maxSats: bigint | null;
}

/**
 * Where a receive can go (spec 1 §2, §5), each with its most as someone stated it, or none: the wallet's
 * own lightning (the LSP's most, or the channels' room) or on-chain (no most), by the flavor chosen; or
 * ecash at each custodian joined, up to what it mints at once when it says.
 */
export const receiveMethods = (
  flavor: ReceiveFlavor,
  federations: readonly {
    readonly federation_id: string;
    readonly federation_name: string;
    readonly max_receive: bigint | null;
  }[],
  lightning: LightningLimits | null = null,
): PaymentMethod[] => [
  flavor === "onchain"
    ? { method: "onchain", maxAmountSats: null }
    : { method: "lightning", maxAmountSats: lightning?.maxSats ?? null },
  ...federations.map(
    (f): PaymentMethod => ({
      method: "ecash",
      maxAmountSats: f.max_receive,
      custodian: { id: f.federation_id, name: f.federation_name },
    }),
  ),
];

/** The paid check runs every second while a request is shown. */
export const RECEIVE_POLL_MS = 1000;

/**
 * The hint shown under the form, as an i18n key with its amount, or null. With no lightning balance yet a
 * lightning receive needs a channel, which the LSP opens only from the minimum it states: below it (or
 * before an amount is typed) the hint says so. An LSP that states no minimum gets no hint here; its own
 * refusal of the amount is shown instead.
 */
export const receiveHint = (
  flavor: ReceiveFlavor,
  amount: bigint | null,
  lightningBalance: bigint,
  channelMinSats: bigint | null = null,
): { key: string; amount: bigint | null } | null => {
  if (flavor === "onchain") return { key: "receive.onchain_hint", amount: null };
  if (channelMinSats !== null && lightningBalance === 0n && (amount === null || amount < channelMinSats))
    return { key: "receive.amount_too_small", amount: channelMinSats };
  return null;
};

/** A channel setup fee above this many sats gets its own notice. */
export const SETUP_FEE_NOTICE_SATS = 1000n;

/** The setup fee is asked for once the amount has stopped changing for this long. */
export const SETUP_FEE_DEBOUNCE_MS = 300;

/**
 * "Show address" waits this long at most, after the debounce, for the LSP's answer about a setup fee, so
 * the fee is read before the request is made and its notices do not move the button under a press. A
 * slower LSP does not hold the owner: past this the button is theirs again and the notices follow.
 */
export const SETUP_FEE_WAIT_MS = 3000;

/** Whether the amount typed calls for asking the LSP about a channel setup fee. */
export const asksSetupFee = (flavor: ReceiveFlavor, intoEcash: boolean, amount: bigint | null): boolean =>
  flavor !== "onchain" && !intoEcash && amount !== null && amount > 0n;

/**
 * The notices about a channel setup fee, as i18n keys with their values: what the fee is and what will
 * arrive when a channel is needed, and a further notice when the fee is over 1,000 sats.
 */
export const setupFeeNotices = (
  fee: { needsChannel: boolean; feeSats: bigint; amountSats: bigint } | null,
): { key: string; fee: bigint; arrives: bigint }[] => {
  if (!fee?.needsChannel) return [];
  const arrives = fee.amountSats > fee.feeSats ? fee.amountSats - fee.feeSats : 0n;
  const shown = [{ key: "receive.setup_fee", fee: fee.feeSats, arrives }];
  if (fee.feeSats > SETUP_FEE_NOTICE_SATS)
    shown.push({ key: "receive.setup_fee_high", fee: fee.feeSats, arrives });
  return shown;
};
