/**
 * The Cashu adapter's hold on each mint while the wallet runs: its state (read once from the sealed store),
 * its cashu-ts wallet, and a queue so operations on one mint run one at a time. NUT-13 counters are reserved
 * here, each reservation durable before the request that uses it goes out, so whatever a mint signed can be
 * restored after a crash.
 */
import { type CounterSource, type GetInfoResponse, type KeyChainCache, Mint, Wallet } from "@cashu/cashu-ts";
import { utf8 } from "@scure/base";
import type { NewEvent } from "../../../events/make";
import type { FetchFn, RequestLimits } from "../../http/bounded";
import { seedOf } from "../../keys/mnemonic";
import type { BlobStore } from "../../lightning/store";
import { type EcashHooks, EcashFailure, inputFeeRefusal, type MeltQuote } from "../port";
import { normaliseMintUrl } from "./info";
import { failure, UNREACHABLE } from "./proofs";
import { mintRequest } from "./request";
import {
  COUNTERS_KEY,
  type CounterRange,
  decodeState,
  encodeState,
  type MintState,
  OUTBOX_SIZE,
  type StoredProof,
  stateKey,
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

export interface Session {
  readonly url: string;
  state: MintState;
  wallet: Wallet | null;
  /** Where the counter source writes the ranges it reserves: the operation on its way. */
  current: CounterRange[] | null;
  /** Operations on one mint run one at a time. */
  queue: Promise<unknown>;
}

/** What every part of the adapter shares. */
export interface Cashu {
  readonly env: CashuEnv;
  readonly uuid: () => string;
  readonly now: () => number;
  readonly sessions: Map<string, Session>;
  /** The next NUT-13 counter of every keyset, whichever URL reaches its mint. */
  readonly keysetCounters: Record<string, number>;
  /** Melt quotes this run prepared (a melt pays only one of them), by quote id. */
  readonly melts: Map<string, MeltQuote & { mint: string; paymentHash: string | null }>;
  /** Writes the mint's state and the counters in one transaction. */
  readonly persist: (s: Session) => Promise<void>;
  readonly sessionOf: (mint: string) => Promise<Session>;
  /** Runs `f` after every earlier operation on the same mint. */
  readonly withMint: <T>(mint: string, f: (s: Session) => Promise<T>) => Promise<T>;
  /** The session's cashu-ts wallet: the mint's keys fetched anew, or from the store when it is unreachable. */
  readonly walletOf: (s: Session, offlineOk?: boolean) => Promise<Wallet>;
  /** The seed the NUT-13 secrets come from (a restore makes its blinded messages itself). */
  readonly seed: () => Uint8Array;
}

export const openCashu = async (env: CashuEnv): Promise<Cashu> => {
  const seed = () => seedOf(env.mnemonic);
  const request = mintRequest(env.fetch, env.limits, env.meltLimits ?? env.limits);
  const sessions = new Map<string, Session>();

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

  const walletOf = async (s: Session, offlineOk = false): Promise<Wallet> => {
    if (s.wallet) return s.wallet;
    const w = new Wallet(new Mint(s.url, { customRequest: request }), {
      unit: "sat",
      bip39seed: seed(),
      counterSource: counters(s),
      requireSigDleq: true,
    });
    try {
      await w.loadMint();
    } catch (e) {
      if (!offlineOk || !s.state.cache) throw failure(e, UNREACHABLE);
      w.loadMintFromCache(s.state.cache.info as GetInfoResponse, s.state.cache.keychain as KeyChainCache);
      refuseHighFees(w);
      return w;
    }
    // Keysets that charge more per coin than the wallet allows are neither used nor kept.
    refuseHighFees(w);
    s.state.cache = { info: w.getMintInfo().cache, keychain: w.keyChain.cache };
    await persist(s);
    s.wallet = w;
    return w;
  };

  return {
    env,
    uuid: env.uuid ?? (() => crypto.randomUUID()),
    now: env.now ?? (() => Date.now()),
    sessions,
    keysetCounters,
    melts: new Map(),
    persist,
    sessionOf,
    withMint,
    walletOf,
    seed,
  };
};

/** Refuses a mint whose keysets in sats charge more input fee than `MAX_INPUT_FEE_PPK`. */
const refuseHighFees = (w: Wallet) => {
  const refused = inputFeeRefusal(Math.max(0, ...w.keyChain.getKeysets().map((k) => k.fee)));
  if (refused) throw refused;
};

/** Keeps `events` in the mint's outbox, to be recorded again if a crash kept them out of the log. */
export const record = (s: Session, events: NewEvent[]): NewEvent[] => {
  s.state.outbox = [...s.state.outbox, ...events].slice(-OUTBOX_SIZE);
  return events;
};

/** Adds the proofs the wallet does not hold yet. */
export const addProofs = (s: Session, proofs: readonly StoredProof[]) => {
  const held = new Set(s.state.proofs.map((p) => p.secret));
  for (const p of proofs) {
    if (held.has(p.secret)) continue;
    s.state.proofs.push(p);
    held.add(p.secret);
  }
};
