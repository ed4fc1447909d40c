import { describe, expect, it } from "vitest";
import { MAX_MONEY_SATS } from "../money";
import { balanceOf } from "./balance";
import { type OnchainTx, onchainProjection } from "./onchain";

const tx = (txid: string, received: bigint, confirmed: boolean): OnchainTx => ({
  txid,
  received,
  sent: 0n,
  fee: 0n,
  labels: [],
  outgoing: false,
  paidTo: null,
  seenAt: 0,
  confirmation: confirmed ? { height: 1, blockHash: "00".repeat(32), blockTime: 0 } : null,
  dropped: false,
  droppedAt: null,
  replacedBy: null,
});

describe("the balance card's total", () => {
  it("is everything the owner has, wherever it is held: on-chain confirmed and incoming, and ecash", () => {
    const onchain = onchainProjection.initial();
    onchain.txs.set("a", tx("a", 30_000n, true));
    onchain.txs.set("b", tx("b", 2_000n, false));
    expect(balanceOf(onchain, undefined, 5_000n)).toEqual({
      confirmed: 30_000n,
      unconfirmed: 2_000n,
      lightning: 0n,
      federation: 5_000n,
      force_close: 0n,
      total: 37_000n,
    });
    expect(balanceOf(onchainProjection.initial()).total).toBe(0n);
  });

  it("never shows more than the 21 million bitcoin that can exist, whatever a server claimed", () => {
    const onchain = onchainProjection.initial();
    onchain.txs.set("a", tx("a", MAX_MONEY_SATS, true));
    expect(balanceOf(onchain, undefined, 1_000n).total).toBe(MAX_MONEY_SATS);
  });
});
