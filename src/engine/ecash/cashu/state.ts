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
  /**
   * Proofs came in from another device's state file (`mergeStates`): some may have been spent there. The
   * next start asks the mint (NUT-07) and drops the spent ones; kept while the mint cannot be asked.
   */
  unchecked?: boolean;
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

/** The key of an event kept in the outbox: an operation's move is one event however often recorded. */
const outboxKey = (e: NewEvent): string =>
  e.type === "ecash.received" || e.type === "ecash.sent" ? `${e.type}:${e.payload.op}` : JSON.stringify(e);

/**
 * One mint's store on this device merged with the same mint's store from another device's state file: every
 * proof of either is kept exactly once (a proof is its secret), counters take the higher, receive quotes and
 * recorded events are joined. This device's operation on its way wins; the other's inputs are kept as
 * proofs to check. When the file brought proofs this device did not hold, the mint is asked at the next
 * start which of them were spent (`unchecked`).
 */
export const mergeStates = (device: MintState, file: MintState): MintState => {
  const proofs: StoredProof[] = [];
  const held = new Set<string>();
  const add = (p: StoredProof) => {
    if (held.has(p.secret)) return false;
    held.add(p.secret);
    proofs.push(p);
    return true;
  };
  for (const p of device.proofs) add(p);
  if (device.pending?.own) for (const p of device.pending.inputs) held.add(p.secret);
  let fresh = false;
  for (const p of file.proofs) fresh = add(p) || fresh;
  const otherPending = file.pending && file.pending.op !== device.pending?.op ? file.pending : null;
  if (otherPending?.own) for (const p of otherPending.inputs) fresh = add(p) || fresh;
  const counters = { ...device.counters };
  for (const [k, n] of Object.entries(file.counters)) counters[k] = Math.max(counters[k] ?? 0, n);
  const quotes = [...device.quotes];
  for (const q of file.quotes) if (!quotes.some((x) => x.quote === q.quote)) quotes.push(q);
  const outbox = [...device.outbox];
  const kept = new Set(outbox.map(outboxKey));
  for (const e of file.outbox) if (!kept.has(outboxKey(e))) outbox.push(e);
  return {
    v: 1,
    proofs,
    counters,
    quotes,
    pending: device.pending ?? file.pending,
    outbox: outbox.slice(-OUTBOX_SIZE),
    cache: device.cache ?? file.cache,
    ...(fresh || device.unchecked ? { unchecked: true } : {}),
  };
};

/** The NUT-13 counters of two devices: the higher of each keyset (a counter used on either is never reused). */
export const mergeCounters = (
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>>,
): Record<string, number> => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b))
    if (Number.isSafeInteger(n) && n >= 0 && (out[k] === undefined || n > out[k])) out[k] = n;
  return out;
};

/**
 * An engine blob of the ecash adapter (`key`) as this device holds it merged with the file's; undefined for a
 * key that is not one (it is not merged).
 */
export const isEcashBlob = (key: string): boolean => key === COUNTERS_KEY || key.startsWith(STATE_PREFIX);

export const mergeBlob = (key: string, device: Uint8Array, file: Uint8Array): Uint8Array | undefined => {
  if (key === COUNTERS_KEY)
    return utf8.decode(
      JSON.stringify(mergeCounters(JSON.parse(utf8.encode(device)), JSON.parse(utf8.encode(file)))),
    );
  if (key.startsWith(STATE_PREFIX)) return encodeState(mergeStates(decodeState(device), decodeState(file)));
  return undefined;
};
