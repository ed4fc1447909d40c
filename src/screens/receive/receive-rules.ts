/** The receive screen's decisions (spec 1 §5, §9). */
export type ReceiveFlavor = "unified" | "lightning" | "onchain";

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
