/** The NUT test vectors (cashubtc/nuts, see vectors/nuts.json) against the primitives the wallet's ecash uses. */
import {
  deriveSecretAndBlindingFactor,
  hasValidDleq,
  hashToCurve,
  pointFromHex,
  type Proof,
  verifyDLEQProof,
} from "@cashu/cashu-ts";
import { hex } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, test } from "vitest";
import vectors from "./vectors/nuts.json";

describe("NUT-00 hash_to_curve", () => {
  test.each(vectors.hash_to_curve)("$message", ({ message, point }) => {
    expect(hashToCurve(hex.decode(message)).toHex(true)).toBe(point);
  });
});

describe("NUT-12 DLEQ", () => {
  const big = (h: string) => hex.decode(h);
  test("a blind signature's proof verifies, and fails once altered", () => {
    const v = vectors.dleq_blind_signature;
    const ok = verifyDLEQProof(
      { e: big(v.e), s: big(v.s) },
      pointFromHex(v.B_),
      pointFromHex(v.C_),
      pointFromHex(v.A),
    );
    expect(ok).toBe(true);
    const flipped = v.s.slice(0, -1) + (v.s.endsWith("a") ? "b" : "a");
    expect(
      verifyDLEQProof(
        { e: big(v.e), s: big(flipped) },
        pointFromHex(v.B_),
        pointFromHex(v.C_),
        pointFromHex(v.A),
      ),
    ).toBe(false);
  });
  test("a proof's DLEQ (with r) verifies against the mint's key", () => {
    const v = vectors.dleq_proof;
    const keyset = { id: v.proof.id, keys: { "1": v.A } };
    const proof = { ...v.proof, amount: v.proof.amount } as unknown as Proof;
    expect(hasValidDleq(proof, keyset)).toBe(true);
    const forged = { ...proof, secret: `${v.proof.secret.slice(0, -1)}0` } as Proof;
    expect(hasValidDleq(forged, keyset)).toBe(false);
  });
});

describe("NUT-13 deterministic secrets", () => {
  const seed = mnemonicToSeedSync(vectors.nut13.mnemonic);
  test.each(vectors.nut13.secrets.map((s, i) => [i, s, vectors.nut13.r[i]] as const))(
    "counter %i",
    (counter, secret, r) => {
      const d = deriveSecretAndBlindingFactor(seed, vectors.nut13.keyset_id, counter);
      expect(hex.encode(d.secret)).toBe(secret);
      expect(hex.encode(d.blindingFactor)).toBe(r);
    },
  );
});
