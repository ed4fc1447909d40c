import { describe, expect, it } from "vitest";
import { decodeCashuToken } from "./cashu";
import { parsePaymentRequest } from "./parse";
import vectors from "./vectors/cashu.json";

describe("Cashu tokens (cashubtc/nuts NUT-00)", () => {
  for (const vector of vectors.valid) {
    it(`reads: ${vector.title}`, () => {
      const token = decodeCashuToken(vector.token);
      expect(token?.token).toBe(vector.token);
      // V4 tokens are CBOR; their amount and memo are left to the ecash engine.
      if (vector.amount_sats !== undefined) {
        expect(token?.amountSats).toBe(vector.version === 3 ? BigInt(vector.amount_sats) : null);
        expect(token?.memo).toBe(vector.version === 3 ? vector.memo : null);
      }
      const request = parsePaymentRequest(`  cashu:${vector.token}\n`, "bitcoin");
      expect(request.cashu_token).toBe(vector.token);
    });
  }
  it("reads a V3 token the same with and without base64 padding", () => {
    const [padded, unpadded] = vectors.valid.filter((v) => v.title.includes("padding"));
    const { token: _a, ...withPadding } = decodeCashuToken(padded?.token ?? "") ?? {};
    const { token: _b, ...withoutPadding } = decodeCashuToken(unpadded?.token ?? "") ?? {};
    expect(withPadding).toEqual(withoutPadding);
    expect(withPadding).toHaveProperty("amountSats");
  });

  for (const vector of vectors.invalid) {
    it(`refuses: ${vector.title}`, () => {
      expect(decodeCashuToken(vector.token)).toBeNull();
      expect(() => parsePaymentRequest(vector.token, "bitcoin")).toThrow("Invalid payment request");
    });
  }
});
