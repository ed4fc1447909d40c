import { describe, expect, it } from "vitest";
import { methodKey, nextMethodKey } from "../../ui/amount-entry";
import { asksSetupFee, receiveHint, receiveMethods, setupFeeNotices } from "./receive-rules";

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

  it("says the LSP's own minimum for a first lightning receive, and nothing when the LSP states none", () => {
    // The LSP opens channels from 10,000 sats: the hint says so until the amount reaches it.
    expect(receiveHint("lightning", null, 0n, 10_000n)).toEqual({
      key: "receive.amount_too_small",
      amount: 10_000n,
    });
    expect(receiveHint("unified", 5_000n, 0n, 10_000n)).toEqual({
      key: "receive.amount_too_small",
      amount: 10_000n,
    });
    expect(receiveHint("lightning", 25_000n, 0n, 10_000n)).toBeNull();
    // Never a made-up 100,000: an LSP that states no minimum gets no hint.
    expect(receiveHint("lightning", 50_000n, 0n, null)).toBeNull();
    expect(receiveHint("lightning", 5_000n, 1n, 10_000n)).toBeNull();
    expect(receiveHint("onchain", 50_000n, 0n, 10_000n)).toEqual({
      key: "receive.onchain_hint",
      amount: null,
    });
  });

  it("offers the wallet's own method by flavor, then ecash at each custodian with its most, cycling through them", () => {
    const feds = [
      { federation_id: "http://a/cashu", federation_name: "A", max_receive: 100_000n },
      { federation_id: "http://b/cashu", federation_name: "B", max_receive: null },
    ];
    const methods = receiveMethods("unified", feds);
    // No limit anybody stated is made up: lightning and the silent mint show none.
    expect(methods).toEqual([
      { method: "lightning", maxAmountSats: null },
      { method: "ecash", maxAmountSats: 100_000n, custodian: { id: "http://a/cashu", name: "A" } },
      { method: "ecash", maxAmountSats: null, custodian: { id: "http://b/cashu", name: "B" } },
    ]);
    expect(receiveMethods("onchain", [])).toEqual([{ method: "onchain", maxAmountSats: null }]);
    // The LSP's most (or the channels' room) when it states one.
    expect(receiveMethods("lightning", [], { channelMinSats: 10_000n, maxSats: 5_000_000n })[0]).toEqual({
      method: "lightning",
      maxAmountSats: 5_000_000n,
    });
    const keys = methods.map(methodKey);
    expect(keys).toEqual(["lightning", "ecash:http://a/cashu", "ecash:http://b/cashu"]);
    expect(nextMethodKey(methods, "lightning")).toBe("ecash:http://a/cashu");
    expect(nextMethodKey(methods, "ecash:http://a/cashu")).toBe("ecash:http://b/cashu");
    expect(nextMethodKey(methods, "ecash:http://b/cashu")).toBe("lightning");
    // A custodian removed meanwhile: the cycle starts again.
    expect(nextMethodKey(methods, "ecash:http://gone")).toBe("lightning");
  });
});

describe("asking the LSP about a setup fee", () => {
  it("asks for a lightning or unified amount, never for on-chain, ecash or no amount", () => {
    expect(asksSetupFee("unified", false, 50_000n)).toBe(true);
    expect(asksSetupFee("lightning", false, 1n)).toBe(true);
    expect(asksSetupFee("onchain", false, 50_000n)).toBe(false);
    expect(asksSetupFee("unified", true, 50_000n)).toBe(false);
    expect(asksSetupFee("unified", false, null)).toBe(false);
    expect(asksSetupFee("unified", false, 0n)).toBe(false);
  });
});
