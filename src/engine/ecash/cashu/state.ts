/**
 * What the Cashu adapter keeps of one mint, as one sealed blob in `kv` (`ecash/cashu/<mint url>`): the
 * spendable proofs (bearer secrets: sealed, never in an event), the NUT-13 counter of each keyset, receive
 * quotes not yet minted, the operation on its way (what a crash must settle), the events of the last
 * operations (re-recorded after a crash), and the mint's info and keys (so a send works offline).
 */
import { utf8 } from "@scure/base";
import type { NewEvent } from "../../../events/make";

export const STATE_PREFIX = "ecash/cashu/";
export const stateKey = (mint: string) => `${STATE_PREFIX}${mint}`;
/** The next NUT-13 counter of every keyset, for all mints (two URLs of one mint share its keysets). */
export const COUNTERS_KEY = "ecash/counters";

export interface StoredProof {
  readonly id: string;
  /** Sats, as a decimal string. */
  readonly amount: string;
  readonly secret: string;
  readonly C: string;
  readonly dleq?: { readonly e: string; readonly s: string; readonly r?: string };
}

/** A range of NUT-13 counters an operation used: restoring it gives back whatever the mint signed. */
export interface CounterRange {
  readonly keysetId: string;
  readonly start: number;
  readonly count: number;
}

export interface PendingQuote {
  readonly quote: string;
  readonly op: string;
  readonly amount: string;
  readonly bolt11: string;
  readonly paymentHash: string;
  readonly expiresAt: number | null;
  /** Counters reserved for minting it (set when a mint request went out). */
  readonly ranges: CounterRange[];
  /** Why it came: a receive, or the arriving half of a transfer. */
  readonly via: "lightning" | "transfer";
}

/** An operation whose answer the wallet has not recorded yet. */
export interface PendingOp {
  readonly kind: "swap" | "melt";
  readonly op: string;
  /** Proofs given up (ours, or a received token's). */
  readonly inputs: StoredProof[];
  /** The inputs were ours (a send, a melt); false for a received token. */
  readonly own: boolean;
  readonly ranges: CounterRange[];
  /** Melt: the quote, what it pays and the payment hash. */
  readonly quote?: string;
  readonly amount?: string;
  readonly paymentHash?: string | null;
  /** What the proofs out of this op are for: sent away as a token (their sats left), or kept. */
  readonly sendAmount?: string;
  readonly via: "lightning" | "token" | "transfer";
}

export interface MintState {
  v: 1;
  proofs: StoredProof[];
  /** Unused since counters are kept per keyset for all mints (`COUNTERS_KEY`); read as a floor. */
  counters: Record<string, number>;
  quotes: PendingQuote[];
  pending: PendingOp | null;
  outbox: NewEvent[];
  cache: { info: unknown; keychain: unknown } | null;
}

export const emptyState = (): MintState => ({
  v: 1,
  proofs: [],
  counters: {},
  quotes: [],
  pending: null,
  outbox: [],
  cache: null,
});

/** The events of the last operations kept for a crash's replay; older ones are surely in the log. */
export const OUTBOX_SIZE = 50;

export const encodeState = (s: MintState): Uint8Array => utf8.decode(JSON.stringify(s));

export const decodeState = (bytes: Uint8Array | undefined): MintState => {
  if (!bytes) return emptyState();
  const raw = JSON.parse(utf8.encode(bytes)) as Partial<MintState>;
  if (raw.v !== 1 || !Array.isArray(raw.proofs)) throw new Error("The ecash store of a mint cannot be read");
  return { ...emptyState(), ...raw } as MintState;
};

export const sumProofs = (proofs: readonly { readonly amount: string }[]): bigint =>
  proofs.reduce((sum, p) => sum + BigInt(p.amount), 0n);
