/**
 * What the wallet will pay in on-chain fees without asking twice. A fee server can lie (a spike of thousands
 * of sat/vB once made a 10,000-sat send cost 589,617 sats); these bounds are checked in the worker, after the
 * spend is planned and before anything is signed.
 */
import { FeeNeedsConfirmation, InvalidInput, ServerUnavailable } from "../../errors";

/** The highest fee rate believed from a server, in sats per 1000 vbytes (1,000 sat/vB). */
export const MAX_FEE_RATE = 1_000_000n;

/** A fee above this share of the amount (one in ten) needs a second confirmation. */
export const HIGH_FEE_DIVISOR = 10n;

/** A fee above this many sats needs a second confirmation, whatever the amount. */
export const HIGH_FEE_SATS = 50_000n;

/** Whether a fee of `feeSats` to send `amountSats` needs the owner's second, explicit confirmation. */
export const isHighFee = (feeSats: bigint, amountSats: bigint): boolean =>
  feeSats > HIGH_FEE_SATS || feeSats * HIGH_FEE_DIVISOR > amountSats;

/** A server's fee estimate, in sat/vB, as the wallet's rate; a rate outside the sane range is refused. */
export const checkedFeeRate = (perVbyte: number): bigint | ServerUnavailable => {
  const rate = BigInt(Math.ceil(perVbyte * 1000));
  if (rate > MAX_FEE_RATE)
    return new ServerUnavailable({
      message: `The fee server asks ${Math.ceil(perVbyte)} sat/vB, far above any real fee: nothing was sent. Try again later or choose another server.`,
      key: "send.error_fee_rate",
      values: { rate: String(Math.ceil(perVbyte)) },
    });
  return rate;
};

/** What a spend may cost: at most the fee the owner was shown, and a high fee only once confirmed. */
export interface FeeConsent {
  /** The fee shown before the owner confirmed; a spend that would now cost more is refused. */
  readonly maxFeeSats?: bigint;
  /** The owner confirmed a second time that the fee is high. */
  readonly highFeeConfirmed?: boolean;
}

/** Why a planned fee may not be paid, or null when it may. */
export const feeRefusal = (
  feeSats: bigint,
  amountSats: bigint,
  consent: FeeConsent,
): FeeNeedsConfirmation | InvalidInput | null => {
  if (consent.maxFeeSats !== undefined && feeSats > consent.maxFeeSats)
    return new InvalidInput({
      message: "The fee went up since it was shown: check it and confirm again.",
      key: "send.error_fee_changed",
    });
  if (isHighFee(feeSats, amountSats) && !consent.highFeeConfirmed)
    return new FeeNeedsConfirmation({
      message: `This payment's fee is ${feeSats} sats: confirm that you want to pay it.`,
      key: "send.high_fee_warning",
      values: { fee: feeSats.toString(), amount: amountSats.toString() },
    });
  return null;
};
