/**
 * Coin selection for P2WPKH inputs, pure and in bigint sats.
 *
 * - Largest coins first: if no prefix of the coins sorted by value pays the amount and its fee, no
 *   subset does either, so a refusal always means the funds are really short.
 * - Fees are charged on an upper bound of the signed size (72-byte signatures), so the feerate paid is
 *   never below the one asked for.
 * - Change below `CHANGE_DUST` (294 sats, Bitcoin Core's dust limit for a P2WPKH output at 3 sat/vB)
 *   is not made: it goes to the fee. The wallet's own minimum for payments is higher (546 sats,
 *   see validate.ts), but change is always the wallet's own P2WPKH output, so the P2WPKH limit applies.
 * - Always: inputs = amount + change + fee.
 */

export const CHANGE_DUST = 294n;
/** Fee rates are integers in sats per 1000 vbytes; 1000 is the relay minimum (1 sat/vB). */
export const MIN_FEE_RATE = 1000n;

/** Output script length of a P2WPKH output (the wallet's change). */
export const P2WPKH_SCRIPT_LEN = 22;

/** Weight units: version, locktime, counts (4 each) plus the segwit marker and flag (1 each). */
const BASE_WEIGHT = 42n;
/** A P2WPKH input: 41 bytes outside the witness (x4), witness of 1 + 73 + 34 bytes (signature ≤ 72). */
const INPUT_WEIGHT = 41n * 4n + 108n;

const outputWeight = (scriptLen: number): bigint => BigInt(8 + 1 + scriptLen) * 4n;

/** An upper bound of the virtual size of a transaction spending `inputs` P2WPKH coins. */
export const estimateVsize = (inputs: number, outputScriptLens: readonly number[]): bigint => {
  const weight =
    BASE_WEIGHT + INPUT_WEIGHT * BigInt(inputs) + outputScriptLens.reduce((w, l) => w + outputWeight(l), 0n);
  return (weight + 3n) / 4n;
};

/** The fee of `vsize` vbytes at `rate` sats per 1000 vbytes, rounded up. */
export const feeFor = (vsize: bigint, rate: bigint): bigint => (vsize * rate + 999n) / 1000n;

export interface Coin {
  readonly value: bigint;
}

export interface Selection<C extends Coin> {
  readonly inputs: readonly C[];
  readonly amount: bigint;
  /** 0n when no change output is made. */
  readonly change: bigint;
  readonly fee: bigint;
  readonly vsize: bigint;
}

export interface Shortfall {
  /** What the largest coins could offer, less their fee. */
  readonly available: bigint;
  readonly needed: bigint;
}

export type SelectionResult<C extends Coin> =
  | { readonly ok: true; readonly selection: Selection<C> }
  | { readonly ok: false; readonly shortfall: Shortfall };

/** Deterministic order: largest value first. Callers keep ties in a stable order of their own. */
const byValue = <C extends Coin>(coins: readonly C[]): C[] =>
  [...coins].sort((a, b) => (a.value === b.value ? 0 : a.value > b.value ? -1 : 1));

/** Pays `amount` to an output with a `destLen`-byte script at `rate` sats per 1000 vbytes. */
export const selectCoins = <C extends Coin>(
  coins: readonly C[],
  amount: bigint,
  destLen: number,
  rate: bigint,
): SelectionResult<C> => {
  const sorted = byValue(coins);
  let total = 0n;
  let best = -1n;
  for (let n = 1; n <= sorted.length; n++) {
    total += sorted[n - 1]!.value;
    const inputs = sorted.slice(0, n);
    const vsizeChange = estimateVsize(n, [destLen, P2WPKH_SCRIPT_LEN]);
    const feeChange = feeFor(vsizeChange, rate);
    const change = total - amount - feeChange;
    if (change >= CHANGE_DUST) {
      return { ok: true, selection: { inputs, amount, change, fee: feeChange, vsize: vsizeChange } };
    }
    const vsize = estimateVsize(n, [destLen]);
    const fee = total - amount;
    if (fee >= feeFor(vsize, rate))
      return { ok: true, selection: { inputs, amount, change: 0n, fee, vsize } };
    const offer = total - feeFor(vsize, rate);
    if (offer > best) best = offer;
  }
  return { ok: false, shortfall: { available: best < 0n ? 0n : best, needed: amount } };
};

/** Spends every coin to one output: the amount is what is left after the fee. */
export const sweepCoins = <C extends Coin>(
  coins: readonly C[],
  destLen: number,
  rate: bigint,
  minAmount: bigint,
): SelectionResult<C> => {
  const total = coins.reduce((s, c) => s + c.value, 0n);
  const vsize = estimateVsize(coins.length, [destLen]);
  const fee = feeFor(vsize, rate);
  const amount = total - fee;
  if (coins.length === 0 || amount < minAmount) {
    return { ok: false, shortfall: { available: amount < 0n ? 0n : amount, needed: minAmount } };
  }
  return { ok: true, selection: { inputs: byValue(coins), amount, change: 0n, fee, vsize } };
};
