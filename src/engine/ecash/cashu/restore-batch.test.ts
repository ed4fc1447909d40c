/**
 * The restore's own unblinding and DLEQ check (restore-batch.ts) against cashu-ts's: a mint's signature made
 * with cashu-ts's mint-side functions gives the same proof both ways, and a signature whose DLEQ proof does
 * not hold is refused.
 */
import { createBlindSignature, createDLEQProof, OutputData, pointFromHex } from "@cashu/cashu-ts";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/curves/utils.js";
import { describe, expect, it } from "vitest";
import { MintKeys, proofOf } from "./restore-batch";

const secret = secp256k1.utils.randomSecretKey();
const keyset = {
  id: "009a1f293253e41e",
  unit: "sat",
  keys: { "1": bytesToHex(secp256k1.getPublicKey(secret, true)) },
};
const seed = new Uint8Array(64).fill(7);

const signed = (counter: number) => {
  const data = OutputData.createSingleDeterministicData(1, seed, counter, keyset.id);
  const B_ = pointFromHex(data.blindedMessage.B_);
  const { C_ } = createBlindSignature(B_, secret, keyset.id);
  const dleq = createDLEQProof(B_, secret);
  const sig = {
    id: keyset.id,
    amount: 1,
    C_: C_.toHex(true),
    dleq: { s: bytesToHex(dleq.s), e: bytesToHex(dleq.e) },
  };
  return { data, sig };
};

describe("a restored proof", () => {
  it("is the proof cashu-ts makes of the same signature", () => {
    const keys = new MintKeys(keyset as never);
    for (let counter = 0; counter < 5; counter++) {
      const { data, sig } = signed(counter);
      const ours = proofOf(data, sig as never, keys);
      const theirs = data.toProof(sig as never, keyset as never);
      expect(ours.C).toBe(theirs.C);
      expect(ours.secret).toBe(theirs.secret);
      expect(ours.dleq).toEqual(theirs.dleq);
    }
  });

  it("is refused when the mint's DLEQ proof does not hold", () => {
    const keys = new MintKeys(keyset as never);
    const { data, sig } = signed(9);
    const other = signed(10).sig;
    expect(() => proofOf(data, { ...sig, dleq: other.dleq } as never, keys)).toThrow(/DLEQ/);
    // A signature by another key, with a proof for that key, is refused too.
    expect(() => proofOf(data, { ...sig, C_: other.C_ } as never, keys)).toThrow(/DLEQ/);
  });
});
