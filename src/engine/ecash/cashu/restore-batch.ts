/**
 * One NUT-09 restore request: the blinded messages of `count` NUT-13 counters from `start` sent at once,
 * what the mint signed among them asked about first (NUT-07), and only the unspent ones made into proofs.
 * A restore finds a wallet's whole history, mostly spent: those are never unblinded.
 *
 * The work is the curve's, so each piece is done once: a counter's secret and blinding factor come from a
 * deriver made once per keyset (derive.ts); its Y = hash_to_curve(secret), computed to blind it, is also
 * what the state check sends, and its B_ is kept as a point for the DLEQ check; the points that are hashed
 * or sent are brought to affine coordinates all at once (one field inversion per batch, not one per point).
 * Unblinding and checking the mint's DLEQ proof (NUT-12) remain the restore's main cost: the mint's keys
 * are multiplied from precomputed tables, and the proof's check, public values only, uses the double
 * multiplication of signature checks.
 */
import {
  Amount,
  CheckStateEnum,
  hash_e,
  hashToCurve,
  type Proof,
  type SerializedBlindedMessage,
  type SerializedBlindedSignature,
  type Wallet,
} from "@cashu/cashu-ts";
import { normalizeZ } from "@noble/curves/abstract/curve.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, bytesToNumberBE, equalBytes, hexToBytes } from "@noble/curves/utils.js";
import type { Derived } from "./derive";
import { toStored } from "./proofs";
import type { StoredProof } from "./state";

type Point = InstanceType<typeof secp256k1.Point>;
const { Point: P } = secp256k1;
const Fn = P.Fn;

type Keyset = Awaited<ReturnType<Wallet["keyChain"]["ensureKeysetKeys"]>>;

/** Uses of one key after which its multiples are precomputed (a table costs about five multiplications). */
const PRECOMPUTE_AFTER = 4;
/** Secrets per NUT-07 request (as cashu-ts asks). */
const STATES_PER_REQUEST = 100;

/** Points in affine coordinates, with one field inversion for all of them. */
const affine = (points: Point[]): Point[] => (points.length === 0 ? [] : normalizeZ(P, points));

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

/** One counter's blinded message, B_ = Y + rG with Y = hash_to_curve(secret), and what made it. */
export interface Blinded {
  readonly counter: number;
  /** The secret as proofs carry it: the derived bytes in hex. */
  readonly secret: string;
  /** The blinding factor. */
  readonly r: bigint;
  /** hash_to_curve(secret), in affine coordinates: what NUT-07 asks about. */
  readonly Y: Point;
  /** In affine coordinates. */
  readonly B_: Point;
  /** As the mint is sent it (amount 0: a restore asks for any amount). */
  readonly message: SerializedBlindedMessage;
}

/** The blinded messages of `count` counters from `start` (what cashu-ts's deterministic outputs send). */
export const blindCounters = (
  derive: (counter: number) => Derived,
  keysetId: string,
  start: number,
  count: number,
): Blinded[] => {
  const utf8 = new TextEncoder();
  const made: { secret: string; r: bigint; Y: Point; B_: Point }[] = [];
  for (let counter = start; counter < start + count; counter++) {
    const d = derive(counter);
    const secret = bytesToHex(d.secret);
    const r = bytesToNumberBE(d.blindingFactor);
    if (r === 0n) throw new Error("Blinding factor r must be non-zero");
    const Y = hashToCurve(utf8.encode(secret));
    made.push({ secret, r, Y, B_: Y.add(P.BASE.multiply(r)) });
  }
  const Bs = affine(made.map((m) => m.B_));
  const zero = Amount.from(0);
  return made.map((m, i) => {
    const B_ = Bs[i] as Point;
    return {
      ...m,
      counter: start + i,
      B_,
      message: { amount: zero, B_: B_.toHex(true), id: keysetId },
    };
  });
};

export interface Signed {
  readonly blinded: Blinded;
  readonly sig: SerializedBlindedSignature;
}

/**
 * The mint's signatures on `signed` unblinded, each DLEQ proof the mint gave checked (C_ = kB_ for the
 * keyset's K = kG); a proof that does not hold refuses the whole batch.
 */
export const proofsOf = (signed: readonly Signed[], keys: MintKeys): Proof[] => {
  const parts = signed.map(({ blinded, sig }) => {
    const K = keys.of(sig.amount.toString());
    const C_ = P.fromHex(sig.C_);
    let dleq: { e: Uint8Array; R1: Point; R2: Point } | null = null;
    if (sig.dleq) {
      const e = hexToBytes(sig.dleq.e);
      const s = Fn.fromBytes(hexToBytes(sig.dleq.s));
      const minusE = Fn.neg(Fn.fromBytes(e));
      // R1 = sG - eK, R2 = sB_ - eC_.
      const R1 = P.BASE.multiplyUnsafe(s).add(K.multiplyUnsafe(minusE));
      const R2 = blinded.B_.mulAddUnsafe(s, C_, minusE);
      dleq = { e, R1, R2 };
    }
    return { blinded, sig, K, C_, dleq, C: C_.subtract(K.multiply(blinded.r)) };
  });
  const flat = affine(parts.flatMap((p) => (p.dleq ? [p.dleq.R1, p.dleq.R2, p.C] : [p.C])));
  let at = 0;
  return parts.map(({ blinded, sig, K, C_, dleq }) => {
    if (dleq) {
      const [R1, R2] = [flat[at++] as Point, flat[at++] as Point];
      let holds = false;
      try {
        holds = equalBytes(hash_e([R1, R2, K, C_]), dleq.e);
      } catch {
        // A point at infinity: no proof.
      }
      if (!holds) throw new Error("DLEQ verification failed on mint response");
    }
    const C = flat[at++] as Point;
    return {
      id: sig.id,
      amount: sig.amount,
      C: C.toHex(true),
      secret: blinded.secret,
      ...(sig.dleq
        ? { dleq: { s: sig.dleq.s, e: sig.dleq.e, r: blinded.r.toString(16).padStart(64, "0") } }
        : {}),
    } as Proof;
  });
};

/** Which of `blinded`'s secrets the mint has seen spent or pending (NUT-07, by their Y). */
const states = async (w: Wallet, blinded: readonly Blinded[]): Promise<CheckStateEnum[]> => {
  const Ys = blinded.map((b) => b.Y.toHex(true));
  const chunks: string[][] = [];
  for (let i = 0; i < Ys.length; i += STATES_PER_REQUEST) chunks.push(Ys.slice(i, i + STATES_PER_REQUEST));
  const answers = await Promise.all(chunks.map((c) => w.mint.check({ Ys: c })));
  const byY = new Map<string, CheckStateEnum>();
  for (const a of answers) for (const s of a.states) byY.set(s.Y, s.state);
  return Ys.map((Y) => {
    const state = byY.get(Y);
    if (state === undefined) throw new Error(`Could not find state for proof with Y: ${Y}`);
    return state;
  });
};

export interface Asked {
  /** What the mint signed among the counters asked, in counter order. */
  readonly signed: Signed[];
  /** The last counter the mint had signed, if any. */
  readonly lastCounter: number | null;
}

/** Asks the mint once for `count` counters from `start` of `keys`' keyset (blinded now, sent now). */
export const askBatch = async (
  w: Wallet,
  derive: (counter: number) => Derived,
  keys: MintKeys,
  start: number,
  count: number,
): Promise<Asked> => {
  const blinded = blindCounters(derive, keys.keyset.id, start, count);
  const { outputs, signatures } = await w.mint.restore({ outputs: blinded.map((b) => b.message) });
  const byB = new Map<string, SerializedBlindedSignature>();
  outputs.forEach((o, i) => {
    const sig = signatures[i];
    if (sig) byB.set(o.B_, sig);
  });
  const signed: Signed[] = [];
  for (const b of blinded) {
    const sig = byB.get(b.message.B_);
    if (sig) signed.push({ blinded: b, sig });
  }
  return { signed, lastCounter: signed.at(-1)?.blinded.counter ?? null };
};

/** The unspent proofs among what the mint signed (asked about first, so spent ones are never unblinded). */
export const unspentProofs = async (
  w: Wallet,
  signed: readonly Signed[],
  keys: MintKeys,
): Promise<StoredProof[]> => {
  if (signed.length === 0) return [];
  const known = await states(
    w,
    signed.map((x) => x.blinded),
  );
  return proofsOf(
    signed.filter((_, i) => known[i] === CheckStateEnum.UNSPENT),
    keys,
  ).map(toStored);
};
