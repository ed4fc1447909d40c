import { describe, expect, it } from "vitest";
import { MAX_MONEY_SATS } from "../money";
import { balanceOf } from "./balance";
import { lightningProjection } from "./lightning";
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
      lightning_pending: 0n,
      lightning_sendable: 0n,
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

describe("lightning in the balances", () => {
  const snapshot = (id: string, ready: boolean, outpoint: string) => ({
    channel_id: id,
    peer: "02",
    outpoint,
    size: "400000",
    balance: ready ? "390000" : "118800",
    // LDK's limit for the next payment keeps the commitment fee of one more payment back.
    sendable: ready ? "389000" : "118000",
    reserve: ready ? "4000" : "1200",
    inbound: "6000",
    is_usable: ready,
    is_ready: ready,
  });

  it("counts a channel still opening as pending, in the total, never as spendable or sendable", () => {
    const onchain = onchainProjection.initial();
    const ln = lightningProjection.initial();
    ln.channels = [snapshot("open", true, "aa:0"), snapshot("opening", false, "bb:0")];
    expect(balanceOf(onchain, ln)).toMatchObject({
      lightning: 394_000n,
      lightning_pending: 120_000n,
      // What can leave now: the open channel's next-payment limit, without its reserve.
      lightning_sendable: 389_000n,
      total: 514_000n,
    });
    // Once usable, the same sats move from pending to the balance; the total does not change.
    ln.channels = [snapshot("open", true, "aa:0"), { ...snapshot("opening", true, "bb:0") }];
    const after = balanceOf(onchain, ln);
    expect(after.lightning_pending).toBe(0n);
    expect(after.lightning).toBe(788_000n);
  });

  it("counts nothing of a channel whose funding never reached the chain", () => {
    const onchain = onchainProjection.initial();
    onchain.txs.set("bb", { ...tx("bb", 0n, false), dropped: true });
    const ln = lightningProjection.initial();
    ln.channels = [snapshot("open", true, "aa:0"), snapshot("gone", false, "bb:0")];
    expect(balanceOf(onchain, ln)).toMatchObject({
      lightning: 394_000n,
      lightning_pending: 0n,
      lightning_sendable: 389_000n,
      total: 394_000n,
    });
  });

  it("reads a snapshot recorded before next-payment limits as able to send its balance", () => {
    const ln = lightningProjection.initial();
    const { sendable: _, ...old } = snapshot("open", true, "aa:0");
    ln.channels = [old];
    expect(balanceOf(onchainProjection.initial(), ln).lightning_sendable).toBe(390_000n);
  });
});
