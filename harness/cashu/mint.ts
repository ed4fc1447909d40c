/**
 * A Cashu mint (NUT-00 to NUT-09 and NUT-12) for the local world, built on cashu-ts's mint-side primitives
 * (blind signatures, DLEQ proofs, hash_to_curve, keyset ids). Its keys come from a fixed seed; its ledger
 * (spent and pending proofs, signed outputs, quotes) lives in memory like the rest of the world. Mint
 * quotes are invoices of a lightning node and are paid when that node receives them; melts are payments
 * by that node. Every request body is checked against `schema.ts`; a bad one is answered 400
 * `{detail, code}` (NUT-00 error codes) and changes nothing.
 */
import { randomBytes } from "node:crypto";
import {
  createBlindSignature,
  createDLEQProof,
  createNewMintKeys,
  getPubKeyFromPrivKey,
  hashToCurve,
  type KeysetPair,
  pointFromHex,
  verifyUnblindedSignature,
} from "@cashu/cashu-ts";
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { Schema } from "effect";
import { decodeBolt11 } from "../../src/engine/parse/bolt11";
import type { HostileMode } from "../hostile";
import {
  type BlindedMessage,
  CheckStateRequestSchema,
  ExpiryRequestSchema,
  MeltQuoteRequestSchema,
  MeltRequestSchema,
  MintQuoteRequestSchema,
  MintRequestSchema,
  type Proof,
  RestoreRequestSchema,
  SwapRequestSchema,
} from "./schema";

/** A mint's refusal: NUT-00's error answer, `{detail, code}`, with an HTTP status (400 unless said). */
export class MintError extends Error {
  constructor(
    readonly code: number,
    readonly detail: string,
    readonly status = 400,
  ) {
    super(detail);
  }
}

/** NUT-00 error codes (cashubtc/nuts, error_codes.md). Code 0: the request itself is malformed. */
export const ErrorCode = {
  badRequest: 0,
  proofInvalid: 10001,
  proofsSpent: 11001,
  proofsPending: 11002,
  outputsSigned: 11003,
  outputsPending: 11004,
  unbalanced: 11005,
  amountOutOfRange: 11006,
  duplicateInputs: 11007,
  duplicateOutputs: 11008,
  amountless: 11011,
  unitUnsupported: 11013,
  keysetUnknown: 12001,
  keysetInactive: 12002,
  quoteUnpaid: 20001,
  quoteIssued: 20002,
  paymentFailed: 20004,
  quotePending: 20005,
  invoicePaid: 20006,
  quoteExpired: 20007,
} as const;

export type PayOutcome =
  | { readonly status: "succeeded"; readonly preimage: string; readonly feeMsat: bigint }
  | { readonly status: "failed"; readonly reason: string };

/** What a mint needs from lightning: its node's invoices and payments. */
export interface MintLightning {
  readonly createInvoice: (
    amountMsat: bigint,
    /** The invoice's text, or the hash it commits to instead. */
    description: string | { readonly hash: Uint8Array },
    expirySecs: number,
  ) => { bolt11: string; paymentHash: string };
  /** Whether the node has received the payment (or it was settled between the world's mints). */
  readonly isPaid: (paymentHash: string) => boolean;
  /** Whether the invoice is another quote of the world's mints: settled between them, with no fee. */
  readonly isInternal: (paymentHash: string) => boolean;
  /** Settles an internal invoice; answers its preimage (hex). */
  readonly settleInternal: (paymentHash: string) => string;
  /**
   * Pays `bolt11` with at most `maxFeeMsat` in fees. `final` is settled once the outcome is known; `now`
   * is null while the payment is still under way when the call answers.
   */
  readonly pay: (
    bolt11: string,
    maxFeeMsat: bigint,
  ) => Promise<{ now: PayOutcome | null; final: Promise<PayOutcome> }>;
}

export interface MintOptions {
  readonly name: string;
  /** The seed its keys are derived from (fixed per mint: the same keysets every run). */
  readonly seed: Uint8Array;
  readonly description: string;
  readonly motd?: string;
  /** NUT-02 input fee in parts per thousand of a sat, per input. */
  readonly inputFeePpk?: number;
  readonly minAmount?: number;
  readonly maxAmount?: number;
  /** Seconds a mint quote (its invoice) stays payable. */
  readonly quoteExpirySecs?: number;
}

interface Signature {
  readonly id: string;
  readonly amount: number;
  readonly C_: string;
  readonly dleq: { readonly e: string; readonly s: string };
}

interface MintQuote {
  readonly id: string;
  readonly amount: number;
  readonly bolt11: string;
  readonly paymentHash: string;
  readonly expiry: number;
  paid: boolean;
  issued: boolean;
}

type MeltState = "UNPAID" | "PENDING" | "PAID";

interface MeltQuote {
  readonly id: string;
  readonly bolt11: string;
  readonly paymentHash: string;
  readonly amount: number;
  readonly feeReserve: number;
  readonly expiry: number;
  readonly internal: boolean;
  /** A lying mint's quote: it keeps the whole fee reserve, whatever the payment cost. */
  readonly greedy: boolean;
  state: MeltState;
  preimage: string | null;
  change: Signature[];
}

export interface Reply {
  readonly status: number;
  readonly json: unknown;
}

const UNIT = "sat";
/** Amounts 1, 2, 4, … 2^31 sats. */
const KEY_COUNT = 32;
const MAX_BLANK_OUTPUTS = 64;
const MELT_QUOTE_EXPIRY_SECS = 3_600;

const now = () => Math.floor(Date.now() / 1000);

/** A UUID v7: 48 bits of milliseconds, then random bits (NUT-04/05 quote ids). */
export const uuidV7 = (): string => {
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = hex.encode(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** `Y = hash_to_curve(secret)`, the key of a proof in the ledger (NUT-00, NUT-07). */
export const proofY = (secret: string): string => hashToCurve(utf8.decode(secret)).toHex(true);

/** Splits an amount into powers of two, smallest first. */
export const powersOfTwo = (amount: number): number[] => {
  const out: number[] = [];
  for (let bit = 0; amount > 0 && bit < 53; bit++) {
    const v = 2 ** bit;
    if (amount % (2 * v) !== 0) {
      out.push(v);
      amount -= v;
    }
  }
  return out;
};

/** A mint's keys from its seed: one `sat` keyset, amounts 1 … 2^31, a NUT-02 version 01 id. */
export const deriveMintKeys = (seed: Uint8Array, inputFeePpk = 0): KeysetPair =>
  createNewMintKeys(KEY_COUNT, seed, { unit: UNIT, input_fee_ppk: inputFeePpk });

/** NUT-02: ⌈Σ input_fee_ppk / 1000⌉ over the inputs. */
export const inputFee = (inputs: number, inputFeePpk: number): number =>
  Math.ceil((inputs * inputFeePpk) / 1000);

const decodeBody = <S extends Schema.Top>(schema: S, body: string): S["Type"] => {
  let raw: unknown;
  try {
    raw = JSON.parse(body || "null");
  } catch {
    throw new MintError(ErrorCode.badRequest, "The request body must be JSON");
  }
  try {
    return (Schema.decodeUnknownSync(schema as never) as (u: unknown) => S["Type"])(raw);
  } catch (e) {
    throw new MintError(
      ErrorCode.badRequest,
      `Invalid request: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
};

const point = (h: string, what: string) => {
  try {
    return pointFromHex(h);
  } catch {
    throw new MintError(ErrorCode.badRequest, `${what} is not a point on secp256k1`);
  }
};

/** The answer with every blind signature's DLEQ proof broken (`bad-dleq`) or left out (`no-dleq`). */
const lieAboutDleq = (json: unknown, mode: "bad-dleq" | "no-dleq"): unknown => {
  if (!json || typeof json !== "object") return json;
  const lie = (sigs: unknown) =>
    Array.isArray(sigs)
      ? sigs.map((s: Signature) => {
          const { dleq, ...rest } = s;
          if (mode === "no-dleq") return rest;
          const flipped = (Number.parseInt(dleq.s.slice(-1), 16) ^ 1).toString(16);
          return { ...rest, dleq: { e: dleq.e, s: `${dleq.s.slice(0, -1)}${flipped}` } };
        })
      : sigs;
  const o = json as Record<string, unknown>;
  return {
    ...o,
    ...("signatures" in o ? { signatures: lie(o.signatures) } : {}),
    ...("change" in o ? { change: lie(o.change) } : {}),
  };
};

export class CashuMint {
  readonly keyset: KeysetPair;
  readonly inputFeePpk: number;
  readonly minAmount: number;
  readonly maxAmount: number;
  /** Unix seconds after which the mint announces it stops serving (shown by wallets as an expiry). */
  endOfService: number | null = null;
  /** The URLs it is reachable at (set once the world's server listens). */
  urls: string[] = [];
  private readonly pubkey: string;
  /** Y → the witness it was spent with. */
  private readonly spent = new Map<string, string | null>();
  private readonly pending = new Set<string>();
  /** B_ of the blank outputs of melts under way: signed (as change) only once the payment is known. */
  private readonly pendingOutputs = new Set<string>();
  /** B_ → the output as signed and its signature (NUT-09). */
  private readonly signed = new Map<string, { output: BlindedMessage; signature: Signature }>();
  private readonly mintQuotes = new Map<string, MintQuote>();
  private readonly meltQuotes = new Map<string, MeltQuote>();
  /** Sats issued by mint quotes, and taken by melts (amount and lightning fee paid): the mint's books. */
  private readonly books = { minted: 0, melted: 0, feesPaid: 0, inputFees: 0, unreturned: 0 };
  /** Melts still waiting for their payment's outcome. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    readonly options: MintOptions,
    private readonly lightning: MintLightning,
  ) {
    this.inputFeePpk = options.inputFeePpk ?? 0;
    this.minAmount = options.minAmount ?? 1;
    this.maxAmount = options.maxAmount ?? 1_000_000;
    this.keyset = deriveMintKeys(options.seed, this.inputFeePpk);
    this.pubkey = hex.encode(getPubKeyFromPrivKey(sha256(options.seed)));
  }

  get keysetId(): string {
    return this.keyset.keysetId;
  }

  /** The mint quotes it has handed out, by payment hash (for settling between the world's mints). */
  quoteByPaymentHash(paymentHash: string): MintQuote | undefined {
    for (const q of this.mintQuotes.values()) if (q.paymentHash === paymentHash) return q;
    return undefined;
  }

  /** Resolves once every melt still under way has its outcome. */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }

  // ---- HTTP ------------------------------------------------------------------------------------------

  /**
   * Answers one request (`path` relative to the mint's URL); never throws. A hostile `mode` (see
   * `harness/hostile.ts`) makes the answer lie, or never come, the way a dishonest mint's would.
   */
  async handle(
    method: string,
    path: string,
    body: string,
    mode: HostileMode<"cashu"> | null = null,
    options: Readonly<Record<string, unknown>> = {},
  ): Promise<Reply> {
    if (mode === "never-answers") return new Promise<Reply>(() => {});
    let reply: Reply;
    try {
      reply = { status: 200, json: await this.route(method, path, body, mode, options) };
    } catch (e) {
      if (e instanceof MintError) reply = { status: e.status, json: { detail: e.detail, code: e.code } };
      else reply = { status: 500, json: { detail: e instanceof Error ? e.message : String(e), code: 0 } };
    }
    if (mode === "melt-no-answer" && method === "POST" && path === "/v1/melt/bolt11")
      return new Promise<Reply>(() => {});
    if ((mode === "bad-dleq" || mode === "no-dleq") && reply.status === 200)
      return { status: 200, json: lieAboutDleq(reply.json, mode) };
    if (mode === "other-invoice" && reply.status === 200 && path.startsWith("/v1/melt/quote/bolt11"))
      return { status: 200, json: this.namingOtherInvoice(reply.json) };
    return reply;
  }

  /** A melt quote that names an invoice of the mint's own node, for the same amount, instead of the one asked. */
  private namingOtherInvoice(json: unknown): unknown {
    const q = json as { amount: number; request: string };
    const other = this.lightning.createInvoice(BigInt(q.amount) * 1000n, "the mint's own", 600);
    return { ...q, request: other.bolt11 };
  }

  private async route(
    method: string,
    path: string,
    body: string,
    mode: HostileMode<"cashu"> | null = null,
    options: Readonly<Record<string, unknown>> = {},
  ): Promise<unknown> {
    if (method === "GET") {
      if (path === "/v1/info")
        return mode === "ending" ? { ...this.info(), end_of_service: Number(options.at) } : this.info();
      if (path === "/admin/ledger") return this.ledger();
      if (path === "/v1/keys") return { keysets: [this.keysJson()] };
      const keys = /^\/v1\/keys\/([^/]+)$/.exec(path);
      if (keys) {
        if (keys[1]!.toLowerCase() !== this.keysetId)
          throw new MintError(ErrorCode.keysetUnknown, "Keyset is not known");
        return { keysets: [this.keysJson()] };
      }
      if (path === "/v1/keysets")
        return {
          keysets: [{ id: this.keysetId, unit: UNIT, active: true, input_fee_ppk: this.inputFeePpk }],
        };
      const mintQuote = /^\/v1\/mint\/quote\/bolt11\/([^/]+)$/.exec(path);
      if (mintQuote) return this.mintQuoteJson(this.mintQuote(mintQuote[1]!));
      const meltQuote = /^\/v1\/melt\/quote\/bolt11\/([^/]+)$/.exec(path);
      if (meltQuote) return this.meltQuoteJson(this.meltQuote(meltQuote[1]!));
    }
    if (method === "POST") {
      switch (path) {
        case "/v1/swap":
          return this.swap(decodeBody(SwapRequestSchema, body));
        case "/v1/mint/quote/bolt11":
          return this.createMintQuote(decodeBody(MintQuoteRequestSchema, body), mode);
        case "/v1/mint/bolt11":
          return this.mint(decodeBody(MintRequestSchema, body));
        case "/v1/melt/quote/bolt11":
          return this.createMeltQuote(
            decodeBody(MeltQuoteRequestSchema, body),
            mode,
            typeof options.reserve === "number" ? options.reserve : 1_000,
          );
        case "/v1/melt/bolt11":
          return this.melt(decodeBody(MeltRequestSchema, body));
        case "/v1/checkstate":
          return this.checkState(decodeBody(CheckStateRequestSchema, body).Ys);
        case "/v1/restore":
          return this.restore(decodeBody(RestoreRequestSchema, body).outputs);
        case "/admin/ledger":
          return this.ledger();
        case "/admin/expiry":
          this.endOfService = decodeBody(ExpiryRequestSchema, body).end_of_service;
          return this.info();
      }
    }
    throw new MintError(ErrorCode.badRequest, `No such endpoint: ${method} ${path}`, 404);
  }

  // ---- NUT-06, NUT-01, NUT-02 ------------------------------------------------------------------------

  info() {
    return {
      name: this.options.name,
      pubkey: this.pubkey,
      version: "LocalWorldMint/1.0.0",
      description: this.options.description,
      description_long: `${this.options.description} Regtest sats only: nothing here has value.`,
      contact: [{ method: "email", info: "mint@local.world" }],
      motd: this.options.motd ?? "The local world's test mint.",
      urls: this.urls,
      time: now(),
      /** Not a NUT field: Unix seconds after which this mint stops serving, null when it has no end date. */
      end_of_service: this.endOfService,
      nuts: {
        "4": {
          methods: [
            {
              method: "bolt11",
              unit: UNIT,
              min_amount: this.minAmount,
              max_amount: this.maxAmount,
              options: { description: true },
            },
          ],
          disabled: false,
        },
        "5": {
          methods: [
            {
              method: "bolt11",
              unit: UNIT,
              min_amount: this.minAmount,
              max_amount: this.maxAmount,
              options: { amountless: false },
            },
          ],
          disabled: false,
        },
        "7": { supported: true },
        "8": { supported: true },
        "9": { supported: true },
        "12": { supported: true },
      },
    };
  }

  /**
   * The mint's books (not a NUT: for tests): what it issued, what melts took, and what its ecash in
   * circulation must therefore add up to.
   */
  ledger() {
    const { minted, melted, feesPaid, inputFees, unreturned } = this.books;
    return {
      minted,
      melted,
      fees_paid: feesPaid,
      input_fees: inputFees,
      /** Overpaid by melts and not given back (no blank outputs to put it in). */
      unreturned,
      outstanding: minted - melted - feesPaid - inputFees - unreturned,
      proofs_spent: this.spent.size,
      proofs_pending: this.pending.size,
      signatures: this.signed.size,
    };
  }

  private keysJson() {
    return {
      id: this.keysetId,
      unit: UNIT,
      active: true,
      input_fee_ppk: this.inputFeePpk,
      keys: Object.fromEntries(Object.entries(this.keyset.pubKeys).map(([a, k]) => [a, hex.encode(k)])),
    };
  }

  feeFor(inputs: number): number {
    return inputFee(inputs, this.inputFeePpk);
  }

  // ---- checks shared by swap, mint and melt ------------------------------------------------------------

  private checkKeyset(id: string) {
    if (id.toLowerCase() !== this.keysetId)
      throw new MintError(ErrorCode.keysetUnknown, "Keyset is not known");
  }

  private privateKey(amount: number): Uint8Array {
    const k = this.keyset.privKeys[String(amount)];
    if (!k) throw new MintError(ErrorCode.badRequest, `${amount} is not an amount this keyset signs`);
    return k;
  }

  /**
   * Checks outputs to be signed: known keyset, valid points, no duplicates, none signed before. `blank`
   * outputs (NUT-08) get their amounts later, so theirs is not checked.
   */
  private checkOutputs(outputs: readonly BlindedMessage[], blank = false): void {
    const seen = new Set<string>();
    for (const o of outputs) {
      this.checkKeyset(o.id);
      if (!blank) this.privateKey(o.amount);
      point(o.B_, "B_");
      const b = o.B_.toLowerCase();
      if (seen.has(b)) throw new MintError(ErrorCode.duplicateOutputs, "Duplicate outputs provided");
      seen.add(b);
      if (this.signed.has(b))
        throw new MintError(ErrorCode.outputsSigned, "Outputs have already been signed");
    }
  }

  /** Checks inputs: known keyset, a valid signature of ours, no NUT-10 conditions, unspent, not pending. */
  private checkInputs(inputs: readonly Proof[]): string[] {
    const ys: string[] = [];
    for (const p of inputs) {
      this.checkKeyset(p.id);
      const key = this.privateKey(p.amount);
      if (p.secret.startsWith("[")) {
        let conditional = false;
        try {
          const parsed = JSON.parse(p.secret) as unknown;
          conditional = Array.isArray(parsed) && typeof parsed[0] === "string";
        } catch {
          // a plain secret that happens to start with "["
        }
        if (conditional)
          throw new MintError(
            ErrorCode.proofInvalid,
            "Spending conditions (NUT-10) are not supported by this mint",
          );
      }
      const C = point(p.C, "C");
      const secret = utf8.decode(p.secret);
      if (!verifyUnblindedSignature({ id: p.id, secret, C }, key))
        throw new MintError(ErrorCode.proofInvalid, "Proof verification failed");
      ys.push(proofY(p.secret));
    }
    if (new Set(ys).size !== ys.length)
      throw new MintError(ErrorCode.duplicateInputs, "Duplicate inputs provided");
    if (ys.some((y) => this.spent.has(y))) throw new MintError(ErrorCode.proofsSpent, "Token already spent");
    if (ys.some((y) => this.pending.has(y))) throw new MintError(ErrorCode.proofsPending, "Token is pending");
    return ys;
  }

  /** Signs a checked output (with `amount`, which a blank output did not carry); remembers it for NUT-09. */
  private sign(o: BlindedMessage, amount = o.amount): Signature {
    const key = this.privateKey(amount);
    const B_ = point(o.B_, "B_");
    const { C_ } = createBlindSignature(B_, key, this.keysetId);
    const dleq = createDLEQProof(B_, key);
    const signature: Signature = {
      id: this.keysetId,
      amount,
      C_: C_.toHex(true),
      dleq: { e: hex.encode(dleq.e), s: hex.encode(dleq.s) },
    };
    const b = o.B_.toLowerCase();
    this.signed.set(b, { output: { amount, id: this.keysetId, B_: b }, signature });
    return signature;
  }

  private markSpent(ys: readonly string[], inputs: readonly Proof[]) {
    ys.forEach((y, i) => {
      this.pending.delete(y);
      const w = inputs[i]?.witness;
      this.spent.set(y, typeof w === "string" ? w : w == null ? null : JSON.stringify(w));
    });
  }

  private static sum(items: readonly { amount: number }[]): number {
    return items.reduce((s, i) => s + i.amount, 0);
  }

  // ---- NUT-03 ------------------------------------------------------------------------------------------

  private swap(req: typeof SwapRequestSchema.Type) {
    this.checkOutputs(req.outputs);
    const ys = this.checkInputs(req.inputs);
    const fee = this.feeFor(req.inputs.length);
    if (CashuMint.sum(req.inputs) - fee !== CashuMint.sum(req.outputs))
      throw new MintError(
        ErrorCode.unbalanced,
        `Transaction is not balanced: inputs ${CashuMint.sum(req.inputs)} - fee ${fee} != outputs ${CashuMint.sum(req.outputs)}`,
      );
    this.markSpent(ys, req.inputs);
    this.books.inputFees += fee;
    return { signatures: req.outputs.map((o) => this.sign(o)) };
  }

  // ---- NUT-04 ------------------------------------------------------------------------------------------

  private checkAmount(amount: number) {
    if (amount < this.minAmount || amount > this.maxAmount)
      throw new MintError(
        ErrorCode.amountOutOfRange,
        `Amount must be between ${this.minAmount} and ${this.maxAmount} sats`,
      );
  }

  private checkUnit(unit: string) {
    if (unit !== UNIT) throw new MintError(ErrorCode.unitUnsupported, `Unit '${unit}' is not supported`);
  }

  /** `wrong-amount`: the invoice asks twice the amount the quote then mints (the mint keeps the rest). */
  private createMintQuote(req: typeof MintQuoteRequestSchema.Type, mode: HostileMode<"cashu"> | null = null) {
    this.checkUnit(req.unit);
    this.checkAmount(req.amount);
    if (req.pubkey != null)
      throw new MintError(ErrorCode.badRequest, "Locked quotes (NUT-20) are not supported by this mint");
    if (req.description != null && utf8.decode(req.description).length > 639)
      throw new MintError(
        ErrorCode.badRequest,
        "The description is longer than an invoice takes (639 bytes)",
      );
    const expirySecs = this.options.quoteExpirySecs ?? 3_600;
    const { bolt11, paymentHash } = this.lightning.createInvoice(
      BigInt(req.amount) * (mode === "wrong-amount" ? 2000n : 1000n),
      req.description_hash
        ? { hash: hex.decode(req.description_hash) }
        : (req.description ?? `${this.options.name}: ${req.amount} sats of ecash`),
      expirySecs,
    );
    const quote: MintQuote = {
      id: uuidV7(),
      amount: req.amount,
      bolt11,
      paymentHash,
      expiry: now() + expirySecs,
      paid: false,
      issued: false,
    };
    this.mintQuotes.set(quote.id, quote);
    return this.mintQuoteJson(quote);
  }

  /** The quote `id` of `quotes` (mint or melt), or the NUT error for an unknown one. */
  private static known<Q>(quotes: Map<string, Q>, id: string): Q {
    const q = quotes.get(id);
    if (!q) throw new MintError(ErrorCode.badRequest, "Unknown quote");
    return q;
  }

  /** What NUT-04 and NUT-05 quotes say alike: the id, the invoice, the amount and the unit. */
  private static quoteHead(q: { id: string; bolt11: string; amount: number }) {
    return { quote: q.id, request: q.bolt11, amount: q.amount, unit: UNIT };
  }

  private mintQuote(id: string): MintQuote {
    const q = CashuMint.known(this.mintQuotes, id);
    if (!q.paid && this.lightning.isPaid(q.paymentHash)) q.paid = true;
    return q;
  }

  private mintQuoteJson(q: MintQuote) {
    return {
      ...CashuMint.quoteHead(q),
      state: q.issued ? "ISSUED" : q.paid ? "PAID" : "UNPAID",
      expiry: q.expiry,
      amount_paid: q.paid ? q.amount : 0,
      amount_issued: q.issued ? q.amount : 0,
    };
  }

  private mint(req: typeof MintRequestSchema.Type) {
    const q = this.mintQuote(req.quote);
    if (q.issued) throw new MintError(ErrorCode.quoteIssued, "Quote has already been issued");
    if (!q.paid) {
      if (q.expiry < now()) throw new MintError(ErrorCode.quoteExpired, "Quote is expired");
      throw new MintError(ErrorCode.quoteUnpaid, "Quote request is not paid");
    }
    this.checkOutputs(req.outputs);
    if (CashuMint.sum(req.outputs) !== q.amount)
      throw new MintError(
        ErrorCode.unbalanced,
        `Outputs (${CashuMint.sum(req.outputs)}) must add up to the quote's amount (${q.amount})`,
      );
    q.issued = true;
    this.books.minted += q.amount;
    return { signatures: req.outputs.map((o) => this.sign(o)) };
  }

  // ---- NUT-05, NUT-08 ----------------------------------------------------------------------------------

  /**
   * `huge-fee-reserve`: the quote's fee reserve is `reserve` sats (the hostile option; 1,000 by default) and
   * the mint keeps all of it. `wrong-amount`: the quote asks twice the invoice's amount and keeps the rest.
   */
  private createMeltQuote(
    req: typeof MeltQuoteRequestSchema.Type,
    mode: HostileMode<"cashu"> | null = null,
    hugeReserve = 1_000,
  ) {
    this.checkUnit(req.unit);
    if (req.options?.amountless != null)
      throw new MintError(ErrorCode.amountless, "Amountless invoices are not supported");
    if (req.options?.mpp != null)
      throw new MintError(ErrorCode.badRequest, "Multi-path payments (NUT-15) are not supported");
    const invoice = decodeBolt11(req.request);
    if (!invoice) throw new MintError(ErrorCode.badRequest, "The request is not a valid bolt11 invoice");
    if (invoice.network !== "regtest")
      throw new MintError(ErrorCode.badRequest, "The invoice is not for regtest, this mint's network");
    if (invoice.amountMsat === null)
      throw new MintError(ErrorCode.amountless, "Amountless invoices are not supported");
    if (invoice.expiresAt <= now()) throw new MintError(ErrorCode.badRequest, "The invoice has expired");
    const asked = Number((invoice.amountMsat + 999n) / 1000n);
    const amount = mode === "wrong-amount" ? asked * 2 : asked;
    this.checkAmount(amount);
    const internal = this.lightning.isInternal(invoice.paymentHash);
    const quote: MeltQuote = {
      id: uuidV7(),
      bolt11: invoice.invoice,
      paymentHash: invoice.paymentHash,
      amount,
      // Lightning fees: at most 1% (at least 2 sats); nothing for a quote of the world's own mints.
      feeReserve:
        mode === "huge-fee-reserve" ? hugeReserve : internal ? 0 : Math.max(2, Math.ceil(amount / 100)),
      greedy: mode === "huge-fee-reserve",
      expiry: Math.min(invoice.expiresAt, now() + MELT_QUOTE_EXPIRY_SECS),
      internal,
      state: "UNPAID",
      preimage: null,
      change: [],
    };
    this.meltQuotes.set(quote.id, quote);
    return this.meltQuoteJson(quote);
  }

  private meltQuote(id: string): MeltQuote {
    return CashuMint.known(this.meltQuotes, id);
  }

  private meltQuoteJson(q: MeltQuote) {
    return {
      ...CashuMint.quoteHead(q),
      fee_reserve: q.feeReserve,
      state: q.state,
      expiry: q.expiry,
      payment_preimage: q.preimage,
      ...(q.change.length > 0 ? { change: q.change } : {}),
    };
  }

  private async melt(req: typeof MeltRequestSchema.Type) {
    const q = this.meltQuote(req.quote);
    if (q.state === "PAID") throw new MintError(ErrorCode.invoicePaid, "Invoice already paid");
    if (q.state === "PENDING") throw new MintError(ErrorCode.quotePending, "Quote is pending");
    if (q.expiry < now()) throw new MintError(ErrorCode.quoteExpired, "Quote is expired");
    for (const other of this.meltQuotes.values()) {
      if (other === q || other.paymentHash !== q.paymentHash) continue;
      if (other.state === "PAID") throw new MintError(ErrorCode.invoicePaid, "Invoice already paid");
      if (other.state === "PENDING") throw new MintError(ErrorCode.quotePending, "Invoice is being paid");
    }
    const blanks = req.outputs ?? [];
    if (blanks.length > MAX_BLANK_OUTPUTS)
      throw new MintError(ErrorCode.badRequest, `At most ${MAX_BLANK_OUTPUTS} blank outputs`);
    this.checkOutputs(blanks, true);
    const ys = this.checkInputs(req.inputs);
    const available = CashuMint.sum(req.inputs) - this.feeFor(req.inputs.length);
    if (available < q.amount + q.feeReserve)
      throw new MintError(
        ErrorCode.unbalanced,
        `Inputs less fees (${available}) must cover the amount and the fee reserve (${q.amount + q.feeReserve})`,
      );
    if (q.internal && this.lightning.isPaid(q.paymentHash))
      throw new MintError(ErrorCode.invoicePaid, "Invoice already paid");

    // From here on the inputs are PENDING: no await happened between the checks and this line.
    for (const y of ys) this.pending.add(y);
    const blankKeys = blanks.map((o) => o.B_.toLowerCase());
    for (const b of blankKeys) this.pendingOutputs.add(b);
    q.state = "PENDING";
    const finish = (outcome: PayOutcome) => {
      for (const b of blankKeys) this.pendingOutputs.delete(b);
      if (outcome.status === "failed") {
        for (const y of ys) this.pending.delete(y);
        q.state = "UNPAID";
        return;
      }
      this.markSpent(ys, req.inputs);
      q.state = "PAID";
      q.preimage = outcome.preimage;
      // NUT-08: what the inputs held beyond the amount and the fee actually paid goes back in the blanks.
      const feePaid = q.greedy ? q.feeReserve : Number((outcome.feeMsat + 999n) / 1000n);
      this.books.melted += q.amount;
      this.books.feesPaid += feePaid;
      this.books.inputFees += CashuMint.sum(req.inputs) - available;
      // The largest pieces first when the blanks are too few (a wallet gives max(⌈log2(fee_reserve)⌉, 1)).
      const pieces = powersOfTwo(available - q.amount - feePaid).filter((a) => a <= 2 ** (KEY_COUNT - 1));
      const change = pieces.slice(Math.max(0, pieces.length - blanks.length));
      q.change = change.map((amount, i) => this.sign(blanks[i]!, amount));
      this.books.unreturned += available - q.amount - feePaid - CashuMint.sum(q.change);
    };

    if (q.internal) {
      let preimage: string;
      try {
        preimage = this.lightning.settleInternal(q.paymentHash);
      } catch (e) {
        finish({ status: "failed", reason: String(e) });
        throw new MintError(ErrorCode.paymentFailed, `Lightning payment failed: ${String(e)}`);
      }
      finish({ status: "succeeded", preimage, feeMsat: 0n });
      return this.meltQuoteJson(q);
    }
    let started: Awaited<ReturnType<MintLightning["pay"]>>;
    try {
      started = await this.lightning.pay(q.bolt11, BigInt(q.feeReserve) * 1000n);
    } catch (e) {
      finish({ status: "failed", reason: String(e) });
      throw new MintError(ErrorCode.paymentFailed, `Lightning payment failed: ${String(e)}`);
    }
    if (started.now === null) {
      // Still under way: the inputs stay PENDING until the node knows the outcome.
      const later = started.final.then(finish, (e: unknown) =>
        finish({ status: "failed", reason: String(e) }),
      );
      this.running.add(later);
      void later.finally(() => this.running.delete(later));
      return this.meltQuoteJson(q);
    }
    finish(started.now);
    if (started.now.status === "failed")
      throw new MintError(ErrorCode.paymentFailed, `Lightning payment failed: ${started.now.reason}`);
    return this.meltQuoteJson(q);
  }

  // ---- NUT-07, NUT-09 ----------------------------------------------------------------------------------

  private checkState(ysIn: readonly string[]) {
    return {
      states: ysIn.map((Y) => {
        const y = Y.toLowerCase();
        const state = this.spent.has(y) ? "SPENT" : this.pending.has(y) ? "PENDING" : "UNSPENT";
        return { Y, state, witness: this.spent.get(y) ?? null };
      }),
    };
  }

  private restore(outputs: readonly BlindedMessage[]) {
    const found = outputs.flatMap((o) => {
      const s = this.signed.get(o.B_.toLowerCase());
      return s ? [s] : [];
    });
    return { outputs: found.map((s) => s.output), signatures: found.map((s) => s.signature) };
  }
}
