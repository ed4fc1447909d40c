/**
 * The restore's own blinding, unblinding and DLEQ check (restore-batch.ts) against cashu-ts's: the blinded
 * messages are those of cashu-ts's deterministic outputs, a mint's signature made with cashu-ts's mint-side
 * functions gives the same proof both ways, and a signature whose DLEQ proof does not hold is refused.
 */
import { createBlindSignature, createDLEQProof, OutputData, pointFromHex } from "@cashu/cashu-ts";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/curves/utils.js";
import { describe, expect, it } from "vitest";
import { nut13Deriver } from "./derive";
import { blindCounters, MintKeys, proofsOf, type Signed } from "./restore-batch";

const secret = secp256k1.utils.randomSecretKey();
const keysetOf = (id: string) => ({
  id,
  unit: "sat",
  keys: { "1": bytesToHex(secp256k1.getPublicKey(secret, true)) },
});
const keyset = keysetOf("009a1f293253e41e");
const seed = new Uint8Array(64).fill(7);

/** Counters from `start` blinded here, and the mint's signatures on them. */
const signed = (start: number, count: number, ks = keyset): Signed[] =>
  blindCounters(nut13Deriver(seed, ks.id), ks.id, start, count).map((blinded) => {
    const B_ = pointFromHex(blinded.message.B_);
    const { C_ } = createBlindSignature(B_, secret, ks.id);
    const dleq = createDLEQProof(B_, secret);
    const sig = {
      id: ks.id,
      amount: 1,
      C_: C_.toHex(true),
      dleq: { s: bytesToHex(dleq.s), e: bytesToHex(dleq.e) },
    };
    return { blinded, sig: sig as never };
  });

describe("a restore's blinded messages", () => {
  it("are cashu-ts's deterministic outputs, for BIP32 and HMAC keyset ids", () => {
    for (const id of [keyset.id, `01${"cd".repeat(32)}`]) {
      for (const start of [0, 197, 100_000]) {
        const ours = blindCounters(nut13Deriver(seed, id), id, start, 40);
        const theirs = OutputData.createDeterministicData(
          0,
          seed,
          start,
          keysetOf(id) as never,
          Array(40).fill(0),
        );
        ours.forEach((b, i) => {
          const t = theirs[i] as OutputData;
          expect(b.counter).toBe(start + i);
          expect(b.message.B_).toBe(t.blindedMessage.B_);
          expect(b.message.id).toBe(t.blindedMessage.id);
          expect(b.message.amount.toString()).toBe(t.blindedMessage.amount.toString());
          expect(b.secret).toBe(new TextDecoder().decode(t.secret));
          expect(b.r).toBe(t.blindingFactor);
        });
      }
    }
  });
});

describe("a restored proof", () => {
  it("is the proof cashu-ts makes of the same signature", () => {
    const keys = new MintKeys(keyset as never);
    // Enough proofs for the key's table to be made partway through.
    const batch = signed(0, 12);
    const ours = proofsOf(batch, keys);
    batch.forEach(({ blinded, sig }, i) => {
      const data = OutputData.createSingleDeterministicData(1, seed, blinded.counter, keyset.id);
      const theirs = data.toProof(sig, keyset as never);
      expect(ours[i]?.C).toBe(theirs.C);
      expect(ours[i]?.secret).toBe(theirs.secret);
      expect(ours[i]?.dleq).toEqual(theirs.dleq);
      expect(ours[i]?.amount.toString()).toBe(theirs.amount.toString());
    });
  });

  it("is refused when the mint's DLEQ proof does not hold", () => {
    const keys = new MintKeys(keyset as never);
    const [a, b] = signed(9, 2) as [Signed, Signed];
    const ok = signed(20, 3);
    expect(() => proofsOf([...ok, { ...a, sig: { ...a.sig, dleq: b.sig.dleq } }], keys)).toThrow(/DLEQ/);
    // A signature by another key, with a proof for that key, is refused too.
    expect(() => proofsOf([{ ...a, sig: { ...a.sig, C_: b.sig.C_ } }, ...ok], keys)).toThrow(/DLEQ/);
    // A proof with a zero s.
    const zero = { s: "00".repeat(32), e: a.sig.dleq?.e as string };
    expect(() => proofsOf([{ ...a, sig: { ...a.sig, dleq: zero } }], keys)).toThrow(/DLEQ/);
  });
});
