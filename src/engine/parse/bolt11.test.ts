import { describe, expect, it } from "vitest";
import { decodeBolt11 } from "./bolt11";
import { parsePaymentRequest } from "./parse";
import vectors from "./vectors/bolt11.json";

/**
 * Valid examples this wallet refuses, and why: light-bolt11-decoder stops at tagged fields whose length
 * BOLT11 says to skip, so the invoice is refused as a whole rather than half-read.
 */
const REFUSED = new Set(["Same, but including fields which must be ignored."]);

describe("BOLT11 examples (lightning/bolts 11-payment-encoding.md)", () => {
  for (const vector of vectors.valid.filter((v) => !REFUSED.has(v.title))) {
    it(`reads: ${vector.title}`, () => {
      const invoice = decodeBolt11(vector.invoice);
      expect(invoice).not.toBeNull();
      expect(invoice?.network).toBe(vector.network);
      expect(invoice?.amountMsat).toBe(vector.amount_msat === null ? null : BigInt(vector.amount_msat));
      expect(invoice?.description).toBe(vector.description);
      expect(invoice?.paymentHash).toBe(vector.payment_hash);
      if ("expiry_seconds" in vector) expect(invoice?.expirySeconds).toBe(vector.expiry_seconds);
      if ("payee_pubkey" in vector) expect(invoice?.payeePubkey).toBe(vector.payee_pubkey);
    });
  }

  for (const vector of vectors.valid.filter((v) => REFUSED.has(v.title))) {
    it(`refuses, without throwing: ${vector.title}`, () => {
      expect(decodeBolt11(vector.invoice)).toBeNull();
    });
  }

  for (const vector of vectors.invalid) {
    it(`refuses: ${vector.title}`, () => {
      expect(decodeBolt11(vector.invoice)).toBeNull();
      expect(() => parsePaymentRequest(vector.invoice, "bitcoin")).toThrow("Invalid payment request");
    });
  }

  it("gives the parsed request amount in whole sats, description as memo", () => {
    const pico = vectors.valid.find((v) => v.amount_msat === "967878534");
    const request = parsePaymentRequest(`lightning:${pico?.invoice}`, "bitcoin");
    expect(request.invoice).toBe(pico?.invoice);
    expect(request.amount_sats).toBe(967_878n);
    expect(request.memo).toBe(pico?.description);
    expect(request.network).toBe("bitcoin");
  });

  it("counts an invoice without an expiry field as expiring an hour after its timestamp", () => {
    const invoice = decodeBolt11(vectors.valid[0]?.invoice ?? "");
    expect(invoice?.expiresAt).toBe((invoice?.timestamp ?? 0) + 3_600);
  });
});
