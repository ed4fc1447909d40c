import type { Effect } from "effect";
import type { KvWrite } from "../events/log";
import type { NewEvent, Stamp } from "../events/make";
import type { Network } from "../events/types";
import type { States } from "../projections";
import type { CommandOf, CommandTag, ResultOf } from "./command";
import type { WalletError } from "../errors";
import type { OnchainPort } from "../engine/onchain/port";
import type { LightningPort } from "../engine/lightning/live";
import type { NostrPort } from "../engine/nostr/live";
import type { EngineName } from "../engine/engine";
import type { WalletConfig } from "../config";
import type { EcashPort } from "../engine/ecash/port";
import type { FetchFn } from "../engine/http/bounded";
import type { FedimintLoader } from "../engine/ecash/fedimint/clients";
import type { KeysPort } from "./keys-port";
import type { WalletLifecycle } from "./lifecycle-port";

export type { KeysPort, KvWrite };

/** What a handler decided: the answer, the events to append, and any engine blobs to store with them. */
export interface Outcome<R> {
  readonly result: R;
  readonly events: readonly NewEvent[];
  readonly kv?: readonly KvWrite[];
}

export const outcome = <R>(
  result: R,
  events: readonly NewEvent[] = [],
  kv?: readonly KvWrite[],
): Outcome<R> => (kv ? { result, events, kv } : { result, events });

/**
 * What a command needs before its handler can run: an engine (the host waits while it starts) or the seed
 * (refused while the wallet is locked; the on-chain engine is built from the seed, so it needs it too).
 */
export type Need = EngineName | "seed";

/** The needs of a family of handlers, declared beside them (several engines: it waits for each). */
export type Needs = { readonly [K in CommandTag]?: Need | readonly EngineName[] };

/** What every handler may read and call. Handlers never write: they return an Outcome. */
export interface HandlerContext {
  /** The folded state of the log as it is now. */
  readonly states: States;
  readonly network: Network;
  /** Where the wallet runs (its servers); absent in tests that need none. */
  readonly config?: WalletConfig;
  readonly stamp: Stamp;
  readonly keys: KeysPort;
  /** Present once the wallet exists and the on-chain engine is started. */
  readonly onchain: OnchainPort | null;
  /** Present once the lightning node runs. */
  readonly lightning: LightningPort | null;
  /** Present once the nostr engine (relays, outbox) runs. */
  readonly nostr?: NostrPort | null;
  /** Present once the wallet joined an ecash custodian and the ecash engine runs. */
  readonly ecash?: EcashPort | null;
  /** The platform's fetch (wrap it with the bounded fetch), for servers no engine owns; null in tests. */
  readonly fetch?: FetchFn | null;
  /** The platform's Fedimint client loader (federations are joined with it); null where none runs. */
  readonly loadFedimint?: FedimintLoader | null;
  /**
   * Runs `effect` with the command queue released, so other commands go on while it waits on a server (an
   * LNURL service, the chain scan). After it the handler holds the queue again and `states` is the log as
   * it is then: whatever it decides from here on, it decides on that.
   */
  readonly outside: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>;
  /**
   * The wallet's lifecycle (its engines, its secrets, the log on disk), for the commands that unlock,
   * replace or delete the wallet; the host gives it, tests of single handlers need none.
   */
  readonly lifecycle?: WalletLifecycle;
}

/**
 * A payment's answer once the node has sent it: the host awaits `settle` outside the command queue, so
 * other commands (the receive screen's polling, a sync) keep running while a payment is on its way.
 */
export interface StartedPayment<R> {
  readonly settle: () => Promise<R>;
}

/** Commands whose answer comes after the queue moved on (lightning payments). */
export type SettledLater =
  | "PayInvoice"
  | "Keysend"
  | "ApproveNwcInvoice"
  | "OpenChannel"
  | "SweepAllToChannel";

/** What a handler decides: the command's result, or for a payment the way to await it. */
export type Decided<K extends CommandTag> = K extends SettledLater
  ? StartedPayment<ResultOf<K>>
  : ResultOf<K>;

export type Handler<K extends CommandTag> = (
  cmd: CommandOf<K>,
  ctx: HandlerContext,
) => Effect.Effect<Outcome<Decided<K>>, WalletError>;
