/**
 * The Fedimint adapter's hold on each federation while the wallet runs: its client, and what the log must
 * still learn of it, sealed in `kv` (receives waiting to be paid, payments on their way, the events of the
 * last operations), with a queue so operations on one federation run one at a time.
 */
import type { CancelFunction, FedimintWallet } from "@fedimint/core";
import { utf8 } from "@scure/base";
import type { NewEvent } from "../../../events/make";
import type { EcashVia } from "../../../events/types";
import type { BlobStore } from "../../lightning/store";
import { EcashFailure, type EcashHooks, type MeltQuote } from "../port";
import { clientName, FEDERATION_CONNECT_FAILED, type FedimintLoader, openClient } from "./clients";
import type { Gateway } from "./map";

export interface FedimintEnv {
  readonly load: FedimintLoader;
  readonly network: string;
  readonly store: BlobStore;
  /** `mints()` lists the federation ids the owner joined. */
  readonly hooks: EcashHooks;
  readonly uuid?: () => string;
  /** How long a payment is followed before it is answered as pending (settled later). */
  readonly payWaitMs?: number;
}

interface PendingReceive {
  readonly op: string;
  readonly operationId: string;
  readonly amount: string;
  readonly paymentHash: string;
  readonly expiresAt: number | null;
  readonly via: EcashVia;
}

export interface PendingPay {
  readonly op: string;
  readonly bolt11: string;
  readonly amount: string;
  readonly fee: string;
  readonly paymentHash: string | null;
  readonly via: EcashVia;
  operationId: string | null;
  internal: boolean;
}

export interface FederationState {
  receives: PendingReceive[];
  pays: PendingPay[];
  outbox: NewEvent[];
}

const STATE_PREFIX = "ecash/fedimint/";
const OUTBOX_SIZE = 32;
const isFederationId = (id: string) => /^[0-9a-f]{64}$/.test(id);

const failure = (e: unknown): EcashFailure =>
  e instanceof EcashFailure
    ? e
    : new EcashFailure({
        message: e instanceof Error && e.message ? e.message : FEDERATION_CONNECT_FAILED,
        unreachable: false,
      });

/** A refusal the owner can act on (not a federation that cannot be reached). */
export const refusal = (message: string): EcashFailure => new EcashFailure({ message, unreachable: false });

/**
 * Follows a client stream until `final` says a state is the last, or `ms` passed: answers the last state
 * seen (null when none came).
 */
export const follow = <T>(
  subscribe: (ok: (s: T) => void, err: (e: string) => void) => CancelFunction,
  final: (s: T) => boolean,
  ms: number,
): Promise<T | null> =>
  new Promise((resolve, reject) => {
    let last: T | null = null;
    let cancel: CancelFunction = () => {};
    const done = (f: () => void) => {
      clearTimeout(timer);
      cancel();
      f();
    };
    const timer = setTimeout(() => done(() => resolve(last)), ms);
    cancel = subscribe(
      (s) => {
        last = s;
        if (final(s)) done(() => resolve(s));
      },
      (e) => done(() => reject(new EcashFailure({ message: e, unreachable: false }))),
    );
  });

/** What every part of the adapter shares. */
export interface Fedimint {
  readonly env: FedimintEnv;
  readonly uuid: () => string;
  readonly payWaitMs: number;
  readonly queues: Map<string, Promise<unknown>>;
  /** Melt quotes this run prepared (a melt pays only one of them), by quote id. */
  readonly melts: Map<string, MeltQuote & { mint: string; gateway: Gateway }>;
  readonly stateOf: (fed: string) => Promise<FederationState>;
  readonly persist: (fed: string, s: FederationState) => Promise<void>;
  /** Runs `f` on the federation's client after every earlier operation on it; failures in the owner's words. */
  readonly withFederation: <T>(
    fed: string,
    f: (w: FedimintWallet, s: FederationState) => Promise<T>,
  ) => Promise<T>;
  /** The federations the owner joined (the custodians whose id is a federation id). */
  readonly federations: () => string[];
}

export const openFedimint = (env: FedimintEnv): Fedimint => {
  const states = new Map<string, FederationState>();
  const queues = new Map<string, Promise<unknown>>();

  const stateOf = async (fed: string): Promise<FederationState> => {
    let s = states.get(fed);
    if (!s) {
      const bytes = await env.store.get(`${STATE_PREFIX}${fed}`);
      s = bytes
        ? (JSON.parse(utf8.encode(bytes)) as FederationState)
        : { receives: [], pays: [], outbox: [] };
      states.set(fed, s);
    }
    return s;
  };

  const clientOf = async (fed: string): Promise<FedimintWallet> => {
    if (!isFederationId(fed)) throw refusal("Invalid Arguments were given");
    const w = await openClient(env.load, clientName(env.network, fed)).catch(() => null);
    if (!w) throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
    return w;
  };

  const withFederation = <T>(fed: string, f: (w: FedimintWallet, s: FederationState) => Promise<T>) => {
    const run = (queues.get(fed) ?? Promise.resolve()).then(async () => {
      try {
        return await f(await clientOf(fed), await stateOf(fed));
      } catch (e) {
        throw failure(e);
      }
    });
    queues.set(
      fed,
      run.catch(() => undefined),
    );
    return run;
  };

  return {
    env,
    uuid: env.uuid ?? (() => crypto.randomUUID()),
    payWaitMs: env.payWaitMs ?? 60_000,
    queues,
    melts: new Map(),
    stateOf,
    persist: (fed, s) =>
      env.store.put([{ key: `${STATE_PREFIX}${fed}`, value: utf8.decode(JSON.stringify(s)) }]),
    withFederation,
    federations: () => env.hooks.mints().filter(isFederationId),
  };
};

/** Keeps `events` in the federation's outbox, to be recorded again if a crash kept them out of the log. */
export const record = (s: FederationState, events: NewEvent[]): NewEvent[] => {
  s.outbox = [...s.outbox, ...events].slice(-OUTBOX_SIZE);
  return events;
};
