/**
 * One NUT-09 restore request: the blinded messages of `count` NUT-13 counters from `start` sent at once,
 * what the mint signed among them asked about first (NUT-07, by the secrets alone), and only the unspent
 * ones made into proofs. A restore finds a wallet's whole history, mostly spent: those are never unblinded.
 *
 * Unblinding and checking the mint's DLEQ proof (NUT-12) are the restore's cost (four multiplications of
 * points per proof in cashu-ts's `toProof`); here the mint's keys are multiplied from precomputed tables,
 * and the proof's check, public values only, uses the double multiplication of signature checks.
 */
import {
  CheckStateEnum,
  hash_e,
  OutputData,
  type Proof,
  type SerializedBlindedSignature,
  type Wallet,
} from "@cashu/cashu-ts";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { equalBytes, hexToBytes } from "@noble/curves/utils.js";
import { toStored } from "./proofs";
import type { StoredProof } from "./state";

type Point = InstanceType<typeof secp256k1.Point>;
const { Point: P } = secp256k1;
const Fn = P.Fn;

type Keyset = Awaited<ReturnType<Wallet["keyChain"]["ensureKeysetKeys"]>>;

/** Uses of one key after which its multiples are precomputed (a table costs about five multiplications). */
const PRECOMPUTE_AFTER = 4;

/** A keyset's keys as points; a key used for many proofs gets its multiples precomputed, once. */
export class MintKeys {
  private readonly points = new Map<string, { point: Point; uses: number }>();
  constructor(readonly keyset: Keyset) {}
  of(amount: string): Point {
    let k = this.points.get(amount);
    if (!k) {
      const hex = this.keyset.keys[amount as never] as string | undefined;
      if (!hex) throw new Error(`The mint signed an amount its keyset has no key for (${amount}).`);
      k = { point: P.fromHex(hex), uses: 0 };
      this.points.set(amount, k);
    }
    if (++k.uses === PRECOMPUTE_AFTER) k.point.precompute(6, false);
    return k.point;
  }
}

/** The mint's signature on `B_` unblinded with `r`, its DLEQ proof checked when it gave one. */
export const proofOf = (data: OutputData, sig: SerializedBlindedSignature, keys: MintKeys): Proof => {
  const amount = sig.amount.toString();
  const K = keys.of(amount);
  const C_ = P.fromHex(sig.C_);
  if (sig.dleq) {
    const e = hexToBytes(sig.dleq.e);
    const s = Fn.fromBytes(hexToBytes(sig.dleq.s));
    const minusE = Fn.neg(Fn.fromBytes(e));
    const R1 = P.BASE.multiplyUnsafe(s).add(K.multiplyUnsafe(minusE));
    const R2 = P.fromHex(data.blindedMessage.B_).mulAddUnsafe(s, C_, minusE);
    if (!equalBytes(hash_e([R1, R2, K, C_]), e)) throw new Error("DLEQ verification failed on mint response");
  }
  const C = C_.subtract(K.multiply(data.blindingFactor));
  return {
    id: sig.id,
    amount: sig.amount,
    C: C.toHex(true),
    secret: new TextDecoder().decode(data.secret),
    ...(sig.dleq
      ? { dleq: { s: sig.dleq.s, e: sig.dleq.e, r: data.blindingFactor.toString(16).padStart(64, "0") } }
      : {}),
  } as Proof;
};

export interface RestoredBatch {
  /** The unspent proofs among what the mint signed. */
  readonly proofs: StoredProof[];
  /** How many of the counters asked the mint had signed (spent or not). */
  readonly signed: number;
  /** The last counter the mint had signed, if any. */
  readonly lastCounter: number | null;
}

/** Asks the mint once for `count` counters from `start` of `keys`' keyset (the request goes out now). */
export const restoreBatch = async (
  w: Wallet,
  seed: Uint8Array,
  keys: MintKeys,
  start: number,
  count: number,
): Promise<RestoredBatch> => {
  const data = OutputData.createDeterministicData(0, seed, start, keys.keyset, Array(count).fill(0));
  const { outputs, signatures } = await w.mint.restore({ outputs: data.map((d) => d.blindedMessage) });
  const byB = new Map<string, SerializedBlindedSignature>();
  outputs.forEach((o, i) => {
    const sig = signatures[i];
    if (sig) byB.set(o.B_, sig);
  });
  const signed: { data: OutputData; sig: SerializedBlindedSignature }[] = [];
  let lastCounter: number | null = null;
  data.forEach((d, i) => {
    const sig = byB.get(d.blindedMessage.B_);
    if (!sig) return;
    signed.push({ data: d, sig });
    lastCounter = start + i;
  });
  if (signed.length === 0) return { proofs: [], signed: 0, lastCounter };
  const secrets = signed.map((x) => ({ secret: new TextDecoder().decode(x.data.secret) }));
  const states = await w.checkProofsStates(secrets as never);
  const proofs = signed
    .filter((_, i) => states[i]?.state === CheckStateEnum.UNSPENT)
    .map((x) => toStored(proofOf(x.data, x.sig, keys)));
  return { proofs, signed: signed.length, lastCounter };
};
