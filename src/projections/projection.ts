import type { WalletEvent } from "../events/types";

/**
 * A pure fold of the event log. No clock, no randomness, no I/O: the same events give the same state on
 * any machine, which is what replay, export and import rely on. `view` derives what the screens read.
 *
 * A fold owns its state: `apply` may update it in place and return it (a 100,000-event replay cannot
 * afford a copy per event). `initial()` makes a fresh state; never keep a state across `apply` calls
 * expecting it unchanged.
 */
export interface Projection<S, V> {
  readonly name: string;
  readonly initial: () => S;
  readonly apply: (state: S, event: WalletEvent) => S;
  readonly view: (state: S) => V;
}

export const projection = <S, V>(p: Projection<S, V>): Projection<S, V> => p;

/** Sum of decimal-string sats as a bigint. */
export const toSats = (s: string): bigint => BigInt(s);

/** Replaces the entry under `key` by `f` of it, when there is one (folds update their maps in place). */
export const patchEntry = <K, V>(m: Map<K, V>, key: K, f: (v: V) => V): void => {
  const v = m.get(key);
  if (v !== undefined) m.set(key, f(v));
};
