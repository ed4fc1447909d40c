/**
 * The Cashu adapter of the ecash port, on cashu-ts's `Wallet` against the mint's NUT HTTP API (through the
 * wallet's bounded transport). Secrets are deterministic from the seed (NUT-13): the counters live in the
 * sealed store and every reservation is durable before the request that uses it goes out, so whatever a
 * mint signed can be restored (NUT-09) after a crash. An operation on its way is written down first; after
 * a crash it is settled by asking the mint (NUT-07 proof states, NUT-05 quote state), never by repeating
 * it: a melt is never paid twice. Signatures are checked against the mint's DLEQ proofs (NUT-12).
 */
import {
  CheckStateEnum,
  type CounterSource,
  getEncodedToken,
  getTokenMetadata,
  type GetInfoResponse,
  type KeyChainCache,
  MeltQuoteState,
  Mint,
  MintQuoteState,
  type Proof,
  type ProofLike,
  Wallet,
} from "@cashu/cashu-ts";
import { utf8 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type NewEvent, newEvent } from "../../../events/make";
import type { EcashVia } from "../../../events/types";
import type { FetchFn, RequestLimits } from "../../http/bounded";
import type { BlobStore } from "../../lightning/store";
import { decodeBolt11 } from "../../parse";
import { type EcashAdapter, EcashFailure, type EcashHooks, type MeltQuote, reserveRefusal } from "../port";
import { normaliseMintUrl } from "./info";
import { mintRequest } from "./request";
import {
  type CounterRange,
  decodeState,
  encodeState,
  type MintState,
  OUTBOX_SIZE,
  type PendingOp,
  type StoredProof,
  stateKey,
  sumProofs,
  COUNTERS_KEY,
} from "./state";

export interface CashuEnv {
  readonly mnemonic: string;
  readonly store: BlobStore;
  readonly fetch: FetchFn;
  readonly hooks: EcashHooks;
  readonly uuid?: () => string;
  readonly now?: () => number;
  /** Deadline and byte cap of each mint request, and of a melt's (it waits on a lightning payment). */
  readonly limits?: RequestLimits;
  readonly meltLimits?: RequestLimits;
}

interface Session {
  readonly url: string;
  state: MintState;
  wallet: Wallet | null;
  /** Where the counter source writes the ranges it reserves: the operation on its way. */
  current: CounterRange[] | null;
  /** Operations on one mint run one at a time. */
  queue: Promise<unknown>;
}

const toStored = (p: Proof | ProofLike): StoredProof => ({
  id: p.id,
  amount: BigInt(p.amount.toString()).toString(),
  secret: p.secret,
  C: p.C,
  ...(p.dleq ? { dleq: { e: p.dleq.e, s: p.dleq.s, ...(p.dleq.r ? { r: p.dleq.r } : {}) } } : {}),
});
const toLike = (p: StoredProof): ProofLike => ({ ...p, amount: BigInt(p.amount) });
const sats = (a: { toString(): string }): bigint => BigInt(a.toString());

/** The owner's words for what a mint said or failed to say. */
const failure = (e: unknown, fallback: string): EcashFailure => {
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

export const startCashu = async (env: CashuEnv): Promise<EcashAdapter> => {
  const uuid = env.uuid ?? (() => crypto.randomUUID());
  const now = env.now ?? (() => Date.now());
  let seed: Uint8Array | null = null;
  const seedOf = () => {
    seed ??= mnemonicToSeedSync(env.mnemonic);
    return seed;
  };
  const request = mintRequest(env.fetch, env.limits, env.meltLimits ?? env.limits);
  const sessions = new Map<string, Session>();
  const melts = new Map<string, MeltQuote & { mint: string; paymentHash: string | null }>();

  // NUT-13 counters are per keyset, whichever URL reaches its mint: one record for all mints, written with
  // the mint's state in one transaction.
  const counterBytes = await env.store.get(COUNTERS_KEY);
  const keysetCounters: Record<string, number> = counterBytes ? JSON.parse(utf8.encode(counterBytes)) : {};
  const persist = (s: Session) =>
    env.store.put([
      { key: stateKey(s.url), value: encodeState(s.state) },
      { key: COUNTERS_KEY, value: utf8.decode(JSON.stringify(keysetCounters)) },
    ]);

  const sessionOf = async (mint: string): Promise<Session> => {
    const url = normaliseMintUrl(mint);
    if (!url) throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
    let s = sessions.get(url);
    if (!s) {
      s = {
        url,
        state: decodeState(await env.store.get(stateKey(url))),
        wallet: null,
        current: null,
        queue: Promise.resolve(),
      };
      sessions.set(url, s);
    }
    return s;
  };

  /** Runs `f` after every earlier operation on the same mint. */
  const withMint = async <T>(mint: string, f: (s: Session) => Promise<T>): Promise<T> => {
    const s = await sessionOf(mint);
    const run = s.queue.then(() => f(s));
    s.queue = run.catch(() => undefined);
    return run;
  };

  const counters = (s: Session): CounterSource => ({
    reserve: async (keysetId, n) => {
      const start = Math.max(keysetCounters[keysetId] ?? 0, s.state.counters[keysetId] ?? 0);
      if (n === 0) return { start, count: 0 };
      keysetCounters[keysetId] = start + n;
      s.current?.push({ keysetId, start, count: n });
      // Durable before the outputs that use these counters are sent.
      await persist(s);
      return { start, count: n };
    },
    advanceToAtLeast: async (keysetId, minNext) => {
      if ((keysetCounters[keysetId] ?? 0) >= minNext) return;
      keysetCounters[keysetId] = minNext;
      await persist(s);
    },
    snapshot: async () => ({ ...keysetCounters }),
  });

  /** The session's cashu-ts wallet: the mint's keys fetched anew, or from the store when it is unreachable. */
  const walletOf = async (s: Session, offlineOk = false): Promise<Wallet> => {
    if (s.wallet) return s.wallet;
    const w = new Wallet(new Mint(s.url, { customRequest: request }), {
      unit: "sat",
      bip39seed: seedOf(),
      counterSource: counters(s),
      requireSigDleq: true,
    });
    try {
      await w.loadMint();
      s.state.cache = { info: w.getMintInfo().cache, keychain: w.keyChain.cache };
      await persist(s);
    } catch (e) {
      if (!offlineOk || !s.state.cache) throw failure(e, "Failed to connect to a federation.");
      w.loadMintFromCache(s.state.cache.info as GetInfoResponse, s.state.cache.keychain as KeyChainCache);
      return w;
    }
    s.wallet = w;
    return w;
  };

  const record = (s: Session, events: NewEvent[]): NewEvent[] => {
    s.state.outbox = [...s.state.outbox, ...events].slice(-OUTBOX_SIZE);
    return events;
  };

  const move = (
    type: "ecash.received" | "ecash.sent",
    s: Session,
    op: string,
    amount: bigint,
    fee: bigint,
    via: EcashVia,
    paymentHash: string | null = null,
  ): NewEvent =>
    newEvent(type, {
      op,
      mint: s.url,
      amount: amount.toString(),
      fee: (fee < 0n ? 0n : fee).toString(),
      via,
      payment_hash: paymentHash,
    });

  /** What the mint signed for `ranges` (NUT-09) and has not seen spent (NUT-07). */
  const restoreRanges = async (w: Wallet, ranges: readonly CounterRange[]): Promise<StoredProof[]> => {
    const found: Proof[] = [];
    for (const r of ranges) {
      const { proofs } = await w.restore(r.start, r.count, { keysetId: r.keysetId });
      found.push(...proofs);
    }
    return unspent(w, found.map(toStored));
  };

  const unspent = async (w: Wallet, proofs: StoredProof[]): Promise<StoredProof[]> => {
    if (proofs.length === 0) return [];
    const states = await w.checkProofsStates(proofs.map(toLike));
    return proofs.filter((_, i) => states[i]?.state === CheckStateEnum.UNSPENT);
  };

  /** Drops the proofs the mint says are spent (a pending one stays: its operation settles it). */
  const dropSpent = async (s: Session): Promise<void> => {
    if (!s.state.unchecked) return;
    const w = await walletOf(s);
    const held = s.state.proofs;
    const states = held.length > 0 ? await w.checkProofsStates(held.map(toLike)) : [];
    if (states.length !== held.length) throw new Error("The mint answered for other proofs");
    const spent = new Set(
      held.filter((_, i) => states[i]?.state === CheckStateEnum.SPENT).map((p) => p.secret),
    );
    s.state.proofs = s.state.proofs.filter((p) => !spent.has(p.secret));
    s.state.unchecked = false;
    await persist(s);
  };

  const addProofs = (s: Session, proofs: readonly StoredProof[]) => {
    const held = new Set(s.state.proofs.map((p) => p.secret));
    for (const p of proofs) {
      if (held.has(p.secret)) continue;
      s.state.proofs.push(p);
      held.add(p.secret);
    }
  };

  /** Settles the operation a crash (or a lost answer) left on its way; answers its events. */
  const settle = async (s: Session): Promise<NewEvent[]> => {
    const p = s.state.pending;
    if (!p) return [];
    const w = await walletOf(s);
    const inputs = sumProofs(p.inputs);
    const events: NewEvent[] = [];
    if (p.kind === "melt") {
      const q = await w.checkMeltQuoteBolt11(p.quote ?? "");
      if (q.state === MeltQuoteState.PENDING) return [];
      if (q.state === MeltQuoteState.PAID) {
        const change = await restoreRanges(w, p.ranges);
        addProofs(s, change);
        const amount = BigInt(p.amount ?? "0");
        events.push(
          move(
            "ecash.sent",
            s,
            p.op,
            amount,
            inputs - amount - sumProofs(change),
            p.via,
            p.paymentHash ?? null,
          ),
        );
      } else {
        // Not paid: the inputs the mint still holds unspent are the wallet's again.
        const back = await unspent(w, p.inputs);
        addProofs(s, back);
        const lost = inputs - sumProofs(back);
        if (lost > 0n) events.push(move("ecash.sent", s, p.op, 0n, lost, p.via));
      }
    } else {
      const back = await unspent(w, p.inputs);
      if (back.length === p.inputs.length) {
        // The swap never happened: own inputs come back, a token stays redeemable by its holder.
        if (p.own) addProofs(s, back);
      } else {
        const restored = await restoreRanges(w, p.ranges);
        addProofs(s, restored);
        if (p.own) {
          addProofs(s, back);
          const kept = sumProofs(restored) + sumProofs(back);
          if (inputs > kept) events.push(move("ecash.sent", s, p.op, 0n, inputs - kept, p.via));
        } else if (restored.length > 0) {
          events.push(
            move("ecash.received", s, p.op, sumProofs(restored), inputs - sumProofs(restored), p.via),
          );
        }
      }
    }
    s.state.pending = null;
    record(s, events);
    await persist(s);
    return events;
  };

  const settled = async (s: Session): Promise<NewEvent[]> => {
    try {
      return await settle(s);
    } catch (e) {
      throw failure(e, "Failed to connect to a federation.");
    }
  };

  /** Runs an operation that gives up `inputs`: written down first, settled by asking the mint if it fails. */
  const guarded = async <T>(s: Session, pending: PendingOp, run: () => Promise<T>): Promise<T> => {
    s.state.pending = pending;
    s.current = pending.ranges;
    await persist(s);
    try {
      return await run();
    } catch (e) {
      s.current = null;
      // A refusal before anything was signed leaves the inputs unspent: settling gives them back.
      await settle(s).catch(() => undefined);
      throw failure(e, "Failed to connect to a federation.");
    } finally {
      s.current = null;
    }
  };

  const receiveQuoteAt = (mint: string, amountSats: bigint, via: "lightning" | "transfer") =>
    withMint(mint, async (s) => {
      const w = await walletOf(s);
      let q: Awaited<ReturnType<Wallet["createMintQuoteBolt11"]>>;
      try {
        q = await w.createMintQuoteBolt11(amountSats);
      } catch (e) {
        throw failure(e, "Failed to connect to a federation.");
      }
      const invoice = decodeBolt11(q.request);
      if (!invoice || invoice.amountMsat !== amountSats * 1000n || sats(q.amount) !== amountSats)
        throw new EcashFailure({
          message: "The mint answered an invoice for another amount.",
          unreachable: false,
        });
      s.state.quotes.push({
        quote: q.quote,
        op: uuid(),
        amount: amountSats.toString(),
        bolt11: q.request,
        paymentHash: invoice.paymentHash,
        expiresAt: q.expiry ?? invoice.expiresAt,
        ranges: [],
        via,
      });
      await persist(s);
      return {
        bolt11: q.request,
        paymentHash: invoice.paymentHash,
        amountSats,
        expiresAt: q.expiry ?? invoice.expiresAt,
      };
    });

  const checkAt = (mint: string) =>
    withMint(mint, async (s) => {
      if (s.state.quotes.length === 0) return [] as NewEvent[];
      const w = await walletOf(s);
      const events: NewEvent[] = [];
      for (const q of [...s.state.quotes]) {
        const drop = () => {
          s.state.quotes = s.state.quotes.filter((x) => x.quote !== q.quote);
        };
        const status = await w.checkMintQuoteBolt11(q.quote);
        let proofs: StoredProof[] | null = null;
        if (status.state === MintQuoteState.PAID) {
          s.current = q.ranges;
          try {
            proofs = (await w.mintProofsBolt11(BigInt(q.amount), q.quote)).map(toStored);
          } finally {
            s.current = null;
          }
        } else if (status.state === MintQuoteState.ISSUED) {
          proofs = q.ranges.length > 0 ? await restoreRanges(w, q.ranges) : [];
        } else if (q.expiresAt !== null && q.expiresAt * 1000 < now()) {
          drop();
          await persist(s);
          continue;
        }
        if (proofs === null) continue;
        addProofs(s, proofs);
        drop();
        const got = sumProofs(proofs);
        events.push(move("ecash.received", s, q.op, got, BigInt(q.amount) - got, q.via, q.paymentHash));
        record(s, events.slice(-1));
        await persist(s);
      }
      return events;
    });

  const port: EcashAdapter = {
    balance: async (mint) => sumProofs((await sessionOf(mint)).state.proofs),

    receiveQuote: (mint, amountSats, via = "lightning") => receiveQuoteAt(mint, amountSats, via),

    checkReceives: async (mint) => {
      const events: NewEvent[] = [];
      for (const m of mint ? [mint] : env.hooks.mints()) {
        try {
          events.push(...(await checkAt(m)));
        } catch (e) {
          if (mint) throw failure(e, "Failed to connect to a federation.");
        }
      }
      return events;
    },

    meltQuote: (mint, bolt11) =>
      withMint(mint, async (s) => {
        const w = await walletOf(s);
        let q: Awaited<ReturnType<Wallet["createMeltQuoteBolt11"]>>;
        try {
          q = await w.createMeltQuoteBolt11(bolt11);
        } catch (e) {
          throw failure(e, "Failed to connect to a federation.");
        }
        const amountSats = sats(q.amount);
        const reserve = sats(q.fee_reserve);
        // The mint quotes the invoice asked about, for its amount, and a fee within the wallet's limit.
        const invoice = decodeBolt11(bolt11);
        if (!invoice || invoice.amountMsat === null || amountSats !== (invoice.amountMsat + 999n) / 1000n)
          throw new EcashFailure({ message: "The amount does not match the invoice.", unreachable: false });
        const refused = reserveRefusal(amountSats, reserve);
        if (refused) throw refused;
        const selection = w.selectProofsToSend(s.state.proofs.map(toLike), amountSats + reserve, true);
        if (sumProofs(selection.send.map(toStored)) < amountSats + reserve)
          throw new EcashFailure({ message: "Insufficient balance", unreachable: false });
        const feeSats = reserve + sats(w.getFeesForProofs(selection.send));
        const quote = { quoteId: q.quote, bolt11, amountSats, feeSats, reserveSats: reserve };
        melts.set(q.quote, { ...quote, mint: s.url, paymentHash: decodeBolt11(bolt11)?.paymentHash ?? null });
        return quote;
      }),

    melt: (mint, quoteId, amountSats, feeSats, via = "lightning") =>
      withMint(mint, async (s) => {
        const seen = melts.get(quoteId);
        if (!seen || seen.mint !== s.url)
          throw new EcashFailure({
            message: "This payment was not prepared; start again.",
            unreachable: false,
          });
        if (seen.amountSats !== amountSats)
          throw new EcashFailure({ message: "The amount does not match the invoice.", unreachable: false });
        if (s.state.pending)
          throw new EcashFailure({ message: "An earlier payment is still on its way.", unreachable: false });
        const w = await walletOf(s);
        const q = await w.checkMeltQuoteBolt11(quoteId).catch((e) => {
          throw failure(e, "Failed to connect to a federation.");
        });
        if (q.state !== MeltQuoteState.UNPAID)
          throw new EcashFailure({ message: "This invoice was already paid.", unreachable: false });
        const reserve = sats(q.fee_reserve);
        if (sats(q.amount) !== amountSats)
          throw new EcashFailure({ message: "The amount does not match the invoice.", unreachable: false });
        const refused = reserveRefusal(amountSats, reserve);
        if (refused) throw refused;
        const selection = w.selectProofsToSend(s.state.proofs.map(toLike), amountSats + reserve, true);
        const inputs = selection.send.map(toStored);
        const fee = reserve + sats(w.getFeesForProofs(selection.send));
        if (sumProofs(inputs) < amountSats + reserve)
          throw new EcashFailure({ message: "Insufficient balance", unreachable: false });
        // The worker pays what the owner saw: a fee above it is refused.
        if (fee > feeSats)
          throw new EcashFailure({
            message: "The fee changed; check the payment again.",
            unreachable: false,
          });
        const op = uuid();
        const pending: PendingOp = {
          kind: "melt",
          op,
          inputs,
          own: true,
          ranges: [],
          quote: quoteId,
          amount: amountSats.toString(),
          paymentHash: seen.paymentHash,
          via,
        };
        s.state.proofs = selection.keep.map(toStored);
        let res: Awaited<ReturnType<Wallet["meltProofsBolt11"]>>;
        try {
          res = await guarded(s, pending, () => w.meltProofsBolt11(q, selection.send));
        } catch (e) {
          // The answer was lost, but the mint said what happened (NUT-05 quote state): paid, or on its way.
          const settledEvent = s.state.outbox.find(
            (x) => x.type === "ecash.sent" && x.payload.op === op && x.payload.amount !== "0",
          );
          if (settledEvent?.type === "ecash.sent") {
            melts.delete(quoteId);
            return {
              status: "paid" as const,
              amountSats,
              feeSats: BigInt(settledEvent.payload.fee),
              preimage: null,
              events: [settledEvent],
            };
          }
          if ((s.state.pending as PendingOp | null)?.op === op)
            return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events: [] };
          throw e;
        }
        melts.delete(quoteId);
        if (res.quote.state !== MeltQuoteState.PAID) {
          // Pending at the mint: it stays written down, settled later by asking (never paid again).
          const events = res.quote.state === MeltQuoteState.PENDING ? [] : await settled(s);
          if (res.quote.state === MeltQuoteState.PENDING)
            return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events };
          throw new EcashFailure({ message: "Payment failed", unreachable: false });
        }
        const change = res.change.map(toStored);
        addProofs(s, change);
        const paidFee = sumProofs(inputs) - amountSats - sumProofs(change);
        const events = record(s, [move("ecash.sent", s, op, amountSats, paidFee, via, seen.paymentHash)]);
        s.state.pending = null;
        await persist(s);
        return {
          status: "paid" as const,
          amountSats,
          feeSats: paidFee < 0n ? 0n : paidFee,
          preimage: res.quote.payment_preimage ?? null,
          events,
        };
      }),

    sendToken: (mint, amountSats) =>
      withMint(mint, async (s) => {
        if (s.state.pending) await settled(s);
        const w = await walletOf(s, true);
        const held = s.state.proofs.map(toLike);
        if (sumProofs(s.state.proofs) < amountSats)
          throw new EcashFailure({ message: "Insufficient balance", unreachable: false });
        const op = uuid();
        // Coins that make the amount exactly go as they are: no mint needed (offline).
        const exact = w.selectProofsToSend(held, amountSats, false, true);
        if (exact.send.length > 0 && sumProofs(exact.send.map(toStored)) === amountSats) {
          const token = getEncodedToken({ mint: s.url, proofs: exact.send, unit: "sat" });
          s.state.proofs = exact.keep.map(toStored);
          const events = record(s, [move("ecash.sent", s, op, amountSats, 0n, "token")]);
          await persist(s);
          return { token, events };
        }
        const selection = w.selectProofsToSend(held, amountSats, true);
        const inputs = selection.send.map(toStored);
        s.state.proofs = selection.keep.map(toStored);
        const res = await guarded(
          s,
          {
            kind: "swap",
            op,
            inputs,
            own: true,
            ranges: [],
            sendAmount: amountSats.toString(),
            via: "token",
          },
          () => w.send(amountSats, selection.send, { includeFees: false }),
        );
        const kept = res.keep.map(toStored);
        addProofs(s, kept);
        const token = getEncodedToken({ mint: s.url, proofs: res.send, unit: "sat" });
        const fee = sumProofs(inputs) - amountSats - sumProofs(kept);
        const events = record(s, [move("ecash.sent", s, op, amountSats, fee, "token")]);
        s.state.pending = null;
        await persist(s);
        return { token, events };
      }),

    receiveToken: async (token) => {
      let meta: ReturnType<typeof getTokenMetadata>;
      try {
        meta = getTokenMetadata(token.trim().replace(/^cashu:(\/\/)?/i, ""));
      } catch {
        throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
      }
      const url = normaliseMintUrl(meta.mint);
      if (!url || meta.unit !== "sat")
        throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
      if (!env.hooks.mints().includes(url))
        throw new EcashFailure({
          message: `Join the mint ${url} before receiving its ecash.`,
          unreachable: false,
        });
      return withMint(url, async (s) => {
        if (s.state.pending) await settled(s);
        const w = await walletOf(s);
        const decoded = w.decodeToken(token.trim().replace(/^cashu:(\/\/)?/i, ""));
        const inputs = decoded.proofs.map(toStored);
        const op = uuid();
        const proofs = await guarded(
          s,
          { kind: "swap", op, inputs, own: false, ranges: [], via: "token" },
          () => w.receive(decoded, { requireDleq: inputs.every((p) => p.dleq !== undefined) }),
        );
        const got = proofs.map(toStored);
        addProofs(s, got);
        const amountSats = sumProofs(got);
        const events = record(s, [
          move("ecash.received", s, op, amountSats, sumProofs(inputs) - amountSats, "token"),
        ]);
        s.state.pending = null;
        await persist(s);
        return { mint: url, amountSats, memo: meta.memo?.slice(0, 500) ?? null, events };
      });
    },

    restore: (mint, onProgress) =>
      withMint(mint, async (s) => {
        if (s.state.pending) await settled(s);
        const w = await walletOf(s);
        const found: StoredProof[] = [];
        try {
          const keysets = w.keyChain.getKeysets().filter((k) => k.unit === "sat" && k.hasHexId);
          for (const [i, k] of keysets.entries()) {
            onProgress?.({ complete: i, total: keysets.length });
            const { proofs, lastCounterWithSignature } = await w.batchRestore(100, 100, 0, k.id);
            if (lastCounterWithSignature !== undefined) {
              const next = lastCounterWithSignature + 1;
              if ((keysetCounters[k.id] ?? 0) < next) keysetCounters[k.id] = next;
            }
            found.push(...(await unspent(w, proofs.map(toStored))));
          }
          onProgress?.({ complete: keysets.length, total: keysets.length });
        } catch (e) {
          throw failure(e, "Failed to connect to a federation.");
        }
        const held = new Set(s.state.proofs.map((p) => p.secret));
        const fresh = found.filter((p) => !held.has(p.secret));
        addProofs(s, fresh);
        const amountSats = sumProofs(fresh);
        const events =
          amountSats > 0n ? record(s, [move("ecash.received", s, uuid(), amountSats, 0n, "restore")]) : [];
        await persist(s);
        return { amountSats, events };
      }),

    recover: async (mint) => {
      const events: NewEvent[] = [];
      for (const m of mint ? [mint] : env.hooks.mints()) {
        try {
          events.push(...(await withMint(m, settled)));
        } catch {
          // Unreachable now: settled at the next start or operation.
        }
      }
      return events;
    },

    stop: async () => {
      await Promise.all([...sessions.values()].map((s) => s.queue));
    },
  };

  // Events a crash may have kept out of the log are recorded again (each operation counts once).
  for (const m of env.hooks.mints()) {
    const s = await sessionOf(m).catch(() => null);
    if (s && s.state.outbox.length > 0) await env.hooks.record(s.state.outbox);
    // Proofs merged in from another device's state file: the mint says which were spent there (NUT-07).
    if (s?.state.unchecked) void withMint(m, dropSpent).catch(() => undefined);
  }
  return port;
};
