/**
 * One shape for every engine (on-chain and lightning now; nostr, wallet-connect and ecash next), so the host
 * that runs them does not grow with each one. An engine is one module exporting one `Engine` value: its
 * name, whether this wallet needs it, how it starts and how it stops. Its code is loaded by `start` through a
 * dynamic import, so an engine a wallet never needs is never downloaded. Handlers reach a running engine
 * through its port (`EnginePorts`).
 */
import type { WalletConfig } from "../config";
import type { States } from "../projections";
import type { LightningHooks, LightningPort } from "./lightning/live";
import type { FetchFn } from "./http/bounded";
import type { WebSocketFactory } from "./http/socket";
import type { PreparedRequest } from "./storage/vss-client";
import type { BlobStore } from "./lightning/store";
import type { NostrHooks, NostrPort } from "./nostr/live";
import type { NwcHooks, NwcPort } from "./nwc/service";
import type { OnchainPort } from "./onchain/port";
import type { EcashHooks, EcashPort } from "./ecash/port";
import type { FedimintLoader } from "./ecash/fedimint/clients";

/** The port each engine gives the handlers, by engine name. */
export interface EnginePorts {
  readonly onchain: OnchainPort;
  readonly lightning: LightningPort;
  readonly ecash: EcashPort;
  readonly nostr: NostrPort;
  readonly nwc: NwcPort;
}

export type EngineName = keyof EnginePorts;

/** What the host gives an engine beyond the seed and the store: calls back into the wallet. */
export interface EngineHooks {
  readonly onchain: Record<string, never>;
  readonly lightning: Omit<LightningHooks, "mnemonic" | "store">;
  readonly ecash: EcashHooks;
  readonly nostr: NostrHooks;
  readonly nwc: NwcHooks;
}

/** Where the wallet runs (the browser's worker, or Node for tests and benches): what engines need of it. */
export interface Platform {
  /** The platform's own fetch: engines reach servers only through `boundedFetch` over it. */
  readonly fetch: FetchFn;
  /** The platform's own sockets: engines open them only through `src/engine/http/socket.ts`. */
  readonly makeSocket: WebSocketFactory;
  /** Loads and initialises LDK's wasm, once however often it is called. */
  readonly loadLdk: () => Promise<void>;
  /**
   * Loads and instantiates the Fedimint client's wasm, once however often it is called; absent where it
   * cannot run (then federations cannot be joined or used).
   */
  readonly loadFedimint?: FedimintLoader;
  /**
   * Resolves once the owner's home screen is drawn and usable (the browser's main thread says so); absent
   * where there is no screen (Node), where background work may start at once.
   */
  readonly homeShown?: () => Promise<void>;
  /**
   * Keeps the request that gives this device's lock on the storage server up, for the page to send as it
   * closes (null: nothing to give up); absent where no page closes (Node).
   */
  readonly lockRelease?: (request: PreparedRequest | null) => void;
  /**
   * Resolves when the lightning node's code and LDK's wasm may be fetched (a new wallet's: once its home is
   * drawn, so none of it comes before); absent where they may come at once.
   */
  readonly ldkAfter?: () => Promise<void>;
}

/** Everything an engine starts from: the wallet's servers, its unlocked seed, a sealed store and its hooks. */
export interface EngineStart<N extends EngineName> {
  readonly config: WalletConfig;
  readonly mnemonic: string;
  /** Engine blobs, sealed at rest with the owner's password when one is set. */
  readonly store: BlobStore;
  readonly platform: Platform;
  readonly hooks: EngineHooks[N];
}

export interface Engine<N extends EngineName> {
  readonly name: N;
  /** Whether this wallet runs the engine, from its folded state (the wallet exists and is unlocked). */
  readonly needed: (states: States) => boolean;
  /**
   * Started by the first command that needs it even when `needed` says no (then it is needed from there on),
   * or after a command whose events make it needed.
   */
  readonly onDemand?: boolean;
  /** Loads the engine's code and starts it; rejects when it cannot start. */
  readonly start: (env: EngineStart<N>) => Promise<EnginePorts[N]>;
  /** Stops it; resolves once everything it must write is durable. */
  readonly stop: (port: EnginePorts[N]) => Promise<void>;
}

export type AnyEngine = { [N in EngineName]: Engine<N> }[EngineName];
