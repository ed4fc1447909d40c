import { describe, expect, it } from "vitest";
import { receiveHint, setupFeeNotices } from "./receive-rules";

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
});
