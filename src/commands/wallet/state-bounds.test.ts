import { describe, expect, it } from "vitest";
import { newEvent, stamp } from "../../events/make";
import { foldEvents } from "../../projections";
import { impossibleHoldings } from "./state-bounds";
import { joinedCashu } from "../../events/events.testing";

let i = 0;
const stampWith = { uuid: () => `e${++i}`, now: () => 1_000 + i, device: "d" };
const joined = (mint: string) => joinedCashu(mint, "m");
const received = (mint: string, amount: bigint) =>
  newEvent("ecash.received", {
    op: `op${++i}`,
    mint,
    amount: amount.toString(),
    fee: "0",
    via: "token",
    payment_hash: null,
  });
const check = (events: ReturnType<typeof newEvent>[]) => {
  const log = stamp(events, stampWith);
  return impossibleHoldings(foldEvents(log), log);
};

describe("what a state file's log adds up to", () => {
  const nowhere = "https://nowhere.example/cashu";
  const mint = "https://mint.example/cashu";
  // The crafted file of issue 29: 6,000,000,000,004,900 e-sats, each amount within 21 M BTC.
  const crafted = [2_000_000_000_000_000n, 2_000_000_000_000_000n, 2_000_000_000_004_900n];

  it("refuses ecash at a mint the log never joined", () => {
    expect(check(crafted.map((a) => received(nowhere, a)))).toMatch(/a mint the wallet never joined/);
    expect(check([received(nowhere, 5n)])).toMatch(/never joined/);
  });

  it("refuses a custodian's ecash, or all ecash, adding up to more than 21 million bitcoin", () => {
    expect(check([joined(nowhere), ...crafted.map((a) => received(nowhere, a))])).toBe(
      "the ecash at https://nowhere.example/cashu adds up to 6000000000004900 sats, more than the 21 million bitcoin that can exist",
    );
    expect(
      check([
        joined(nowhere),
        joined(mint),
        received(nowhere, 2_000_000_000_000_000n),
        received(mint, 2_000_000_000_000_000n),
      ]),
    ).toMatch(/^the ecash adds up to 4000000000000000 sats/);
  });

  it("refuses on-chain funds adding up to more than can exist, and everything together", () => {
    const tx = (n: number, received: bigint) =>
      newEvent("onchain.tx_seen", {
        txid: n.toString(16).padStart(64, "0"),
        received: received.toString(),
        sent: "0",
        fee: "0",
        labels: [],
        outgoing: false,
      });
    expect(check([tx(1, 2_000_000_000_000_000n), tx(2, 2_000_000_000_000_000n)])).toMatch(
      /^the on-chain balance adds up to 4000000000000000 sats/,
    );
    expect(
      check([tx(1, 2_000_000_000_000_000n), joined(mint), received(mint, 200_000_000_000_000n)]),
    ).toMatch(/^the wallet adds up to 2200000000000000 sats/);
  });

  it("accepts a wallet that can exist, and ecash at a mint joined and later removed", () => {
    expect(check([joined(mint), received(mint, 2_100_000_000_000_000n)])).toBeNull();
    expect(check([joined(mint), received(mint, 5n), newEvent("ecash.removed", { mint })])).toBeNull();
  });
});
