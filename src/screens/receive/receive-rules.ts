/** The receive screen's decisions (spec 1 §5, §9). */
import type { PaymentMethod } from "../../ui/amount-entry";

export type ReceiveFlavor = "unified" | "lightning" | "onchain";

/** The most a receive may ask (spec 1 §9: about 21 million bitcoin). */
export const MAX_RECEIVE_SATS = 2_099_999_997_690_000n;

/**
 * Where a receive can go (spec 1 §2, §5), each with its most: the wallet's own lightning or on-chain (by the
 * flavor chosen), or ecash at each custodian joined, up to what it mints at once when it says.
 */
export const receiveMethods = (
  flavor: ReceiveFlavor,
  federations: readonly {
    readonly federation_id: string;
    readonly federation_name: string;
    readonly max_receive: bigint | null;
  }[],
): PaymentMethod[] => [
  { method: flavor === "onchain" ? "onchain" : "lightning", maxAmountSats: MAX_RECEIVE_SATS },
  ...federations.map(
    (f): PaymentMethod => ({
      method: "ecash",
      maxAmountSats:
        f.max_receive !== null && f.max_receive < MAX_RECEIVE_SATS ? f.max_receive : MAX_RECEIVE_SATS,
      custodian: { id: f.federation_id, name: f.federation_name },
    }),
  ),
];

/** The paid check runs every second while a request is shown. */
export const RECEIVE_POLL_MS = 1000;

/** Lightning receives need inbound room: below this with no lightning balance the amount is too small. */
export const SMALL_RECEIVE_SATS = 100_000n;

/** The hint shown under the form, as an i18n key, or null. */
export const receiveHint = (
  flavor: ReceiveFlavor,
  amount: bigint | null,
  lightningBalance: bigint,
): string | null => {
  if (flavor === "onchain") return "receive.onchain_hint";
  if (lightningBalance === 0n && (amount === null || amount < SMALL_RECEIVE_SATS))
    return "receive.amount_too_small";
  return null;
};

/** A channel setup fee above this many sats gets its own notice. */
export const SETUP_FEE_NOTICE_SATS = 1000n;

/** The setup fee is asked for once the amount has stopped changing for this long. */
export const SETUP_FEE_DEBOUNCE_MS = 300;

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
