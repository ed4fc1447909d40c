import { describe, expect, it } from "vitest";
import { methodKey, nextMethodKey } from "../../ui/amount-entry";
import { MAX_RECEIVE_SATS, receiveHint, receiveMethods, setupFeeNotices } from "./receive-rules";

describe("receive notices", () => {
  it("shows the setup fee and what arrives only when a channel is needed", () => {
    expect(setupFeeNotices(null)).toEqual([]);
    expect(setupFeeNotices({ needsChannel: false, feeSats: 0n, amountSats: 50_000n })).toEqual([]);
    expect(setupFeeNotices({ needsChannel: true, feeSats: 1_000n, amountSats: 50_000n })).toEqual([
      { key: "receive.setup_fee", fee: 1_000n, arrives: 49_000n },
    ]);
  });

  it("adds the info notice for a setup fee over 1,000 sats", () => {
    expect(setupFeeNotices({ needsChannel: true, feeSats: 2_000n, amountSats: 50_000n })).toEqual([
      { key: "receive.setup_fee", fee: 2_000n, arrives: 48_000n },
      { key: "receive.setup_fee_high", fee: 2_000n, arrives: 48_000n },
    ]);
  });

  it("keeps the small-receive hint rules", () => {
    expect(receiveHint("lightning", 50_000n, 0n)).toBe("receive.amount_too_small");
    expect(receiveHint("lightning", 50_000n, 1n)).toBeNull();
    expect(receiveHint("onchain", 50_000n, 0n)).toBe("receive.onchain_hint");
  });

  it("offers the wallet's own method by flavor, then ecash at each custodian with its most, cycling through them", () => {
    const feds = [
      { federation_id: "http://a/cashu", federation_name: "A", max_receive: 100_000n },
      { federation_id: "http://b/cashu", federation_name: "B", max_receive: null },
    ];
    const methods = receiveMethods("unified", feds);
    expect(methods).toEqual([
      { method: "lightning", maxAmountSats: MAX_RECEIVE_SATS },
      { method: "ecash", maxAmountSats: 100_000n, custodian: { id: "http://a/cashu", name: "A" } },
      { method: "ecash", maxAmountSats: MAX_RECEIVE_SATS, custodian: { id: "http://b/cashu", name: "B" } },
    ]);
    expect(receiveMethods("onchain", [])).toEqual([{ method: "onchain", maxAmountSats: MAX_RECEIVE_SATS }]);
    const keys = methods.map(methodKey);
    expect(keys).toEqual(["lightning", "ecash:http://a/cashu", "ecash:http://b/cashu"]);
    expect(nextMethodKey(methods, "lightning")).toBe("ecash:http://a/cashu");
    expect(nextMethodKey(methods, "ecash:http://a/cashu")).toBe("ecash:http://b/cashu");
    expect(nextMethodKey(methods, "ecash:http://b/cashu")).toBe("lightning");
    // A custodian removed meanwhile: the cycle starts again.
    expect(nextMethodKey(methods, "ecash:http://gone")).toBe("lightning");
  });
});
