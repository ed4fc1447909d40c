import { describe, expect, it } from "vitest";
import { checkedFeeRate, feeRefusal, HIGH_FEE_SATS, isHighFee, MAX_FEE_RATE } from "./fee-rules";

describe("fee rules", () => {
  it("believes fee rates up to 1,000 sat/vB and refuses a spike above it with the catalogue's words", () => {
    expect(checkedFeeRate(3.5)).toBe(3500n);
    expect(checkedFeeRate(1000)).toBe(MAX_FEE_RATE);
    const spike = checkedFeeRate(5000);
    expect(spike).toMatchObject({
      _tag: "ServerUnavailable",
      key: "send.error_fee_rate",
      values: { rate: "5000" },
    });
  });

  it("calls a fee high above a tenth of the amount or above the fixed ceiling", () => {
    expect(isHighFee(1_000n, 10_000n)).toBe(false);
    expect(isHighFee(1_001n, 10_000n)).toBe(true);
    expect(isHighFee(HIGH_FEE_SATS + 1n, 100_000_000n)).toBe(true);
    expect(isHighFee(HIGH_FEE_SATS, 100_000_000n)).toBe(false);
  });

  it("pays a high fee only after the second confirmation, and never more than the fee shown", () => {
    expect(feeRefusal(589_617n, 10_000n, {})).toMatchObject({ _tag: "FeeNeedsConfirmation" });
    expect(feeRefusal(589_617n, 10_000n, { maxFeeSats: 589_617n })).toMatchObject({
      _tag: "FeeNeedsConfirmation",
    });
    expect(feeRefusal(589_617n, 10_000n, { maxFeeSats: 589_617n, highFeeConfirmed: true })).toBeNull();
    expect(feeRefusal(600_000n, 10_000n, { maxFeeSats: 589_617n, highFeeConfirmed: true })).toMatchObject({
      key: "send.error_fee_changed",
    });
    expect(feeRefusal(141n, 10_000n, { maxFeeSats: 141n })).toBeNull();
    expect(feeRefusal(142n, 10_000n, { maxFeeSats: 141n })).toMatchObject({ key: "send.error_fee_changed" });
  });
});
