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
import { askBatch, blindCounters, MintKeys, proofsOf, type Signed, unspentProofs } from "./restore-batch";

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

describe("a restore batch", () => {
  /** A mint that signed counters 3, 5 and 8 of the keyset, and has seen counter 5's proof spent. */
  const mintOf = (answerStates = true) => {
    const made = signed(0, 10);
    const byB = new Map(made.map((x) => [x.blinded.message.B_, x]));
    const spent = new Set([made[5]?.blinded.Y.toHex(true)]);
    const asked: string[][] = [];
    const mint = {
      restore: async ({ outputs }: { outputs: { B_: string }[] }) => {
        const found = outputs.filter((o) => [3, 5, 8].some((c) => made[c]?.blinded.message.B_ === o.B_));
        return { outputs: found, signatures: found.map((o) => byB.get(o.B_)?.sig) };
      },
      check: async ({ Ys }: { Ys: string[] }) => {
        asked.push(Ys);
        return {
          states: (answerStates ? Ys : Ys.slice(1)).map((Y) => ({
            Y,
            state: spent.has(Y) ? "SPENT" : "UNSPENT",
            witness: null,
          })),
        };
      },
    };
    return { w: { mint } as never, asked };
  };

  it("finds what the mint signed, asks its states by Y, and unblinds only the unspent", async () => {
    const { w, asked } = mintOf();
    const keys = new MintKeys(keyset as never);
    const r = await askBatch(w, nut13Deriver(seed, keyset.id), keys, 0, 10);
    expect(r.signed.map((x) => x.blinded.counter)).toEqual([3, 5, 8]);
    expect(r.lastCounter).toBe(8);
    const proofs = await unspentProofs(w, r.signed, keys);
    expect(asked).toEqual([r.signed.map((x) => x.blinded.Y.toHex(true))]);
    expect(proofs.map((p) => p.secret)).toEqual([r.signed[0]?.blinded.secret, r.signed[2]?.blinded.secret]);
  });

  it("is refused when the mint leaves out a proof's state", async () => {
    const { w } = mintOf(false);
    const keys = new MintKeys(keyset as never);
    const r = await askBatch(w, nut13Deriver(seed, keyset.id), keys, 0, 10);
    await expect(unspentProofs(w, r.signed, keys)).rejects.toThrow(/state/);
  });

  it("with nothing signed asks nothing more", async () => {
    const { w, asked } = mintOf();
    const keys = new MintKeys(keyset as never);
    const r = await askBatch(w, nut13Deriver(seed, keyset.id), keys, 10, 10);
    expect(r).toEqual({ signed: [], lastCounter: null });
    expect(await unspentProofs(w, r.signed, keys)).toEqual([]);
    expect(asked).toEqual([]);
  });
});
