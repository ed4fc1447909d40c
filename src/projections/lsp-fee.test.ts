import { describe, expect, it } from "vitest";
import { newEvent } from "../events/make";
import { channelDetails } from "./activity";
import { channel, channelPending, fold, hash, LSP, OTHER } from "./projections.testing";

const invoice = (n: number, msat: bigint) =>
  newEvent("ln.invoice_created", {
    payment_hash: hash(n),
    bolt11: `lnbcrt${n}`,
    amount_msat: msat.toString(),
    description: "",
    labels: [],
    expires_at: 9_999_999_999,
  });

const inbound = (n: number, peer: string) =>
  channelPending(n, channel(n), peer, { capacity_sats: "100000", fee_sats: "0", is_outbound: false });

describe("the LSP's setup fee on the channel it opened", () => {
  it("shows on the LSP's inbound channel opened for the payment; the payment is what arrived", () => {
    const s = fold([
      inbound(1, OTHER),
      invoice(1, 48_000_000n),
      newEvent("ln.lsp_fee", { payment_hash: hash(1), fee_msat: "2000000", lsp: LSP }),
      inbound(2, LSP),
      newEvent("ln.payment_received", { payment_hash: hash(1), amount_msat: "48000000" }),
    ]);
    expect(channelDetails(s.lightning, s.onchain, channel(2))?.fee_sats).toBe(2_000n);
    expect(channelDetails(s.lightning, s.onchain, channel(1))?.fee_sats).toBe(0n);
    expect(s.lightning.invoices.get(hash(1))?.paidMsat).toBe(48_000_000n);
  });

  it("charges no channel the LSP did not open for it", () => {
    const s = fold([
      inbound(1, LSP),
      invoice(1, 48_000_000n),
      newEvent("ln.lsp_fee", { payment_hash: hash(1), fee_msat: "2000000", lsp: LSP }),
      newEvent("ln.payment_received", { payment_hash: hash(1), amount_msat: "48000000" }),
    ]);
    expect(channelDetails(s.lightning, s.onchain, channel(1))?.fee_sats).toBe(0n);
  });
});
