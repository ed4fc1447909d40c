/**
 * Proofs as the Cashu adapter stores them and as cashu-ts takes them, and what a mint says of them: which are
 * unspent (NUT-07), what it signed for a range of counters (NUT-09), and the owner's words for a failure.
 */
import { CheckStateEnum, type Proof, type ProofLike, type Wallet } from "@cashu/cashu-ts";
import { EcashFailure } from "../port";
import type { CounterRange, StoredProof } from "./state";

/** The words of a mint that cannot be reached (the spec's catalogue says federation for every custodian). */
export const UNREACHABLE = "Failed to connect to a federation.";

export const toStored = (p: Proof | ProofLike): StoredProof => ({
  id: p.id,
  amount: BigInt(p.amount.toString()).toString(),
  secret: p.secret,
  C: p.C,
  ...(p.dleq ? { dleq: { e: p.dleq.e, s: p.dleq.s, ...(p.dleq.r ? { r: p.dleq.r } : {}) } } : {}),
});
export const toLike = (p: StoredProof): ProofLike => ({ ...p, amount: BigInt(p.amount) });
export const sats = (a: { toString(): string }): bigint => BigInt(a.toString());

/** The owner's words for what a mint said or failed to say. */
export const failure = (e: unknown, fallback: string): EcashFailure => {
  if (e instanceof EcashFailure) return e;
  const name = e instanceof Error ? e.name : "";
  const message = e instanceof Error && e.message ? e.message : fallback;
  const unreachable =
    name === "NetworkError" ||
    name === "RequestTimedOut" ||
    name === "AnswerTooLarge" ||
    (name === "HttpResponseError" && !("code" in (e as object)));
  return new EcashFailure({ message: unreachable ? fallback : message, unreachable });
};

/** What the mint answers to `request`, or why it did not in the owner's words. */
export const fromMint = async <T>(request: Promise<T>): Promise<T> => {
  try {
    return await request;
  } catch (e) {
    throw failure(e, UNREACHABLE);
  }
};

/** A refusal the owner can act on (not a mint that cannot be reached). */
export const refusal = (message: string): EcashFailure => new EcashFailure({ message, unreachable: false });

/** The proofs the mint has not seen spent (NUT-07). */
export const unspent = async (w: Wallet, proofs: StoredProof[]): Promise<StoredProof[]> => {
  if (proofs.length === 0) return [];
  const states = await w.checkProofsStates(proofs.map(toLike));
  return proofs.filter((_, i) => states[i]?.state === CheckStateEnum.UNSPENT);
};

/** What the mint signed for `ranges` (NUT-09) and has not seen spent (NUT-07). */
export const restoreRanges = async (w: Wallet, ranges: readonly CounterRange[]): Promise<StoredProof[]> => {
  const found: Proof[] = [];
  for (const r of ranges) {
    const { proofs } = await w.restore(r.start, r.count, { keysetId: r.keysetId });
    found.push(...proofs);
  }
  return unspent(w, found.map(toStored));
};
