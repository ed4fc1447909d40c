import { describe, expect, it } from "vitest";
import { menuLimits, receiveLimits } from "./receive-limits";
import { OFFER_NOW as NOW, offerParams as offer } from "../../engine/lightning/lsps2.testing";

describe("a lightning receive's limits, as the LSP states them", () => {
  it("takes the lowest minimum and the highest most of the offers still valid", () => {
    const menu = [
      offer(),
      offer({ min_payment_size_msat: "20000000", max_payment_size_msat: "5000000000" }),
      // Expired, and one asking a longer delay than the wallet accepts: neither counts.
      offer({ min_payment_size_msat: "1000", valid_until: "2020-01-01T00:00:00.000Z" }),
      offer({ max_payment_size_msat: "9000000000000", max_client_to_self_delay: 10 }),
    ];
    expect(menuLimits(menu, NOW)).toEqual({ minMsat: 10_000_000n, maxMsat: 5_000_000_000n });
    expect(menuLimits([], NOW)).toBeNull();
  });

  it("says the LSP's minimum (10,000 sats, not a made-up 100,000) and the larger of its most and the channels' room", () => {
    const said = { minMsat: 10_000_000n, maxMsat: 1_000_000_000n };
    expect(receiveLimits(0n, said)).toEqual({ channelMinSats: 10_000n, maxSats: 1_000_000n });
    expect(receiveLimits(3_000_000n, said)).toEqual({ channelMinSats: 10_000n, maxSats: 3_000_000n });
    // A minimum in millisats is never shown below what it is.
    expect(receiveLimits(0n, { minMsat: 10_000_001n, maxMsat: 1_000_000_000n }).channelMinSats).toBe(10_001n);
    // An LSP that states nothing: no limit at all, rather than 21 million bitcoin.
    expect(receiveLimits(0n, null)).toEqual({ channelMinSats: null, maxSats: null });
  });
});
