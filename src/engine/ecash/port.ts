/**
 * The ecash port: what the commands ask of a custodian the owner joined, whichever kind it is (a Cashu mint
 * by URL, a Fedimint federation by id). Every operation answers the events that record what
 * moved; the adapter has already written its own state (proofs, counters, operations on their way) before
 * it answers, and keeps those events until the next start so a crash between its write and the log's
 * records them then (the projection counts an operation once).
 */
import { Data } from "effect";
import type { NewEvent } from "../../events/make";
import { feeLimitSats } from "../lightning/policy";

/** A custodian refused or failed an operation; `message` is for the owner. Nothing was lost. */
export class EcashFailure extends Data.TaggedError("EcashFailure")<{
  readonly message: string;
  /** The custodian could not be reached (or answered nonsense): the operation may be tried again. */
  readonly unreachable: boolean;
  /** The catalogue key the screen shows instead of `message`, with its placeholders. */
  readonly key?: string;
  readonly values?: Record<string, string>;
}> {}

/**
 * A melt pays a lightning invoice through the custodian: its fee reserve (the routing fee it may keep) is held
 * to the limit every lightning payment of the wallet has, max(1 %, 10 sats) of the amount. A reserve above it
 * is refused before anything is paid, whatever the custodian names; null when it is within.
 */
export const reserveRefusal = (amountSats: bigint, reserveSats: bigint): EcashFailure | null => {
  const limit = feeLimitSats(amountSats);
  if (reserveSats <= limit) return null;
  return new EcashFailure({
    message: `The mint asks up to ${reserveSats} sats in fees to move ${amountSats} sats, above the ${limit} sats the wallet allows: nothing was sent.`,
    unreachable: false,
    key: "federations.error_fee_reserve",
    values: { fee: reserveSats.toString(), amount: amountSats.toString(), limit: limit.toString() },
  });
};

/**
 * The most input fee a mint may charge (NUT-02 `input_fee_ppk`: thousandths of a sat per coin spent, rounded
 * up over a swap's or melt's inputs): one sat per coin. At that a 1-sat coin costs what it is worth to spend,
 * so above it the wallet's small coins turn to dust that costs more to spend than it holds; at it a payment
 * of up to a million sats (about twenty coins) costs at most about twenty sats in input fees. Real mints
 * charge 0 to a few hundred. A mint asking more is refused before anything is sent (the fee is checked when
 * joining, and again each time the wallet reads the mint's keysets).
 */
export const MAX_INPUT_FEE_PPK = 1_000;

/** The refusal of a mint whose keysets charge `ppk` per coin spent, above `MAX_INPUT_FEE_PPK`; null within. */
export const inputFeeRefusal = (ppk: number): EcashFailure | null => {
  if (ppk <= MAX_INPUT_FEE_PPK) return null;
  const fee = (ppk / 1_000).toString();
  const limit = (MAX_INPUT_FEE_PPK / 1_000).toString();
  return new EcashFailure({
    message: `The mint charges ${fee} sats for each coin spent, above the ${limit} sat the wallet allows: nothing was sent.`,
    unreachable: false,
    key: "federations.error_input_fee",
    values: { fee, limit },
  });
};

/** A quote that does not pay the invoice it was asked for: refused before anything is sent. */
export const otherInvoiceRefusal = () =>
  new EcashFailure({
    message: "The mint's quote is for another invoice than the one to pay: nothing was sent.",
    unreachable: false,
    key: "federations.error_quote_invoice",
  });

export interface ReceiveQuote {
  readonly bolt11: string;
  readonly paymentHash: string;
  readonly amountSats: bigint;
  /** Unix seconds. */
  readonly expiresAt: number | null;
}

export interface MeltQuote {
  readonly quoteId: string;
  readonly bolt11: string;
  readonly amountSats: bigint;
  /** The most the payment may cost: the custodian's lightning fee reserve and its input fees. */
  readonly feeSats: bigint;
  /** The lightning fee reserve alone (within `reserveRefusal`'s limit, or the quote is refused). */
  readonly reserveSats: bigint;
}

export interface MeltResult {
  readonly status: "paid" | "pending";
  readonly amountSats: bigint;
  /** What it cost: the fee kept (the unused fee reserve came back as change). */
  readonly feeSats: bigint;
  readonly preimage: string | null;
  readonly events: readonly NewEvent[];
}

/** How far a restore from the seed got: counters asked of all there are to ask (a guess that grows). */
export interface RestoreProgress {
  readonly complete: number;
  readonly total: number;
  /** A Cashu mint's keysets, and how many of them the restore has begun (several go at once). */
  readonly keysets?: number;
  readonly keyset?: number;
  /** Unspent proofs found so far, each counted once. */
  readonly proofs?: number;
}

/** How far a resync got (spec 2: polled each second by the progress dialog). */
export interface ResyncProgress {
  readonly total: number;
  readonly complete: number;
  readonly done: boolean;
  /** Sats found that the log did not count (recorded as restored). */
  readonly recoveredSats: bigint;
  /** Why it stopped, when it failed. */
  readonly error: string | null;
}

/** One kind of custodian (Cashu mints, Fedimint federations): what the port asks of it. */
export interface EcashAdapter {
  /** Sats held at `mint` (spendable proofs), per the adapter's own store. */
  readonly balance: (mint: string) => Promise<bigint>;
  /** An invoice of the mint that, once paid, becomes ecash here (`checkReceives` mints it). */
  readonly receiveQuote: (
    mint: string,
    amountSats: bigint,
    via?: "lightning" | "transfer",
  ) => Promise<ReceiveQuote>;
  /**
   * The amount of a receive this wallet asked `mint` for and is still waiting on, by its invoice's payment
   * hash; null when there is none (a transfer pays only an invoice its destination gave this wallet).
   */
  readonly openReceive: (mint: string, paymentHash: string) => Promise<bigint | null>;
  /** Mints every paid receive quote (of `mint`, or of all); answers the events of what came in. */
  readonly checkReceives: (mint?: string) => Promise<readonly NewEvent[]>;
  readonly meltQuote: (mint: string, bolt11: string) => Promise<MeltQuote>;
  /** The invoice the melt quote `quoteId` of `mint`, prepared by this run, pays; null when there is none. */
  readonly meltInvoice: (mint: string, quoteId: string) => Promise<string | null>;
  /**
   * Pays a melt quote the owner saw: refused unless the quote still asks exactly `amountSats` and at most
   * `feeSats`. A payment the mint holds as pending stays pending (never sent twice).
   */
  readonly melt: (
    mint: string,
    quoteId: string,
    amountSats: bigint,
    feeSats: bigint,
    via?: "lightning" | "transfer",
  ) => Promise<MeltResult>;
  /** A cashuB token of exactly `amountSats` (offline when the wallet holds coins that make it exactly). */
  readonly sendToken: (
    mint: string,
    amountSats: bigint,
  ) => Promise<{ token: string; events: readonly NewEvent[] }>;
  /** Redeems a token at its mint (which the owner must have joined); `memo` is the token's own note. */
  readonly receiveToken: (
    token: string,
  ) => Promise<{ mint: string; amountSats: bigint; memo: string | null; events: readonly NewEvent[] }>;
  /**
   * Looks for what the seed holds at `mint` (Cashu: NUT-09/13) or what the custodian's client recovers
   * (Fedimint); `onProgress` hears how far it got. Answers the sats found that this device did not hold;
   * its events bring the log's balance at the mint up to what is held now, from `accountedSats` (what the
   * log already counts there, e.g. brought back from the storage server) when given.
   */
  readonly restore: (
    mint: string,
    onProgress?: (p: RestoreProgress) => void,
    accountedSats?: bigint,
  ) => Promise<{ amountSats: bigint; events: readonly NewEvent[] }>;
  /** Settles operations a crash interrupted (NUT-07 checks); answers their events. */
  readonly recover: (mint?: string) => Promise<readonly NewEvent[]>;
  readonly stop: () => Promise<void>;
}

export interface EcashPort extends EcashAdapter {
  /**
   * Starts a resync of `mint` (a restore run in the background, its events recorded when it ends);
   * answers at once. A resync already running is not started twice.
   */
  readonly resync: (mint: string) => Promise<void>;
  /** How far the last resync of `mint` got; null before one started. */
  readonly resyncProgress: (mint: string) => ResyncProgress | null;
  /** The restore from the seed running now and how far it got; null when none runs. */
  readonly restoreProgress: () => (RestoreProgress & { readonly mint: string }) | null;
}

/** What the host gives the ecash engine beyond the seed and the store. */
export interface EcashHooks {
  /** The custodians the owner joined (mint URLs, federation ids), or still holds ecash at. */
  readonly mints: () => readonly string[];
  /** Sats the log counts at `mint`. */
  readonly held?: (mint: string) => bigint;
  /** Records events the engine kept from before a crash (an operation already recorded is counted once). */
  readonly record: (events: readonly NewEvent[]) => Promise<void>;
}
