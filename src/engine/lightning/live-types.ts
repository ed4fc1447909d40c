/**
 * What the wallet's lightning engine is given and what it offers (`live.ts` wires them): its dependencies,
 * its servers, the LSP it uses, and the port the handlers reach it through.
 */
import type { ClosedFor } from "./delay";
import type { Servers } from "../../config";
import type { NewEvent } from "../../events/make";
import type { ChannelSnapshot, Network } from "../../events/types";
import type { EsploraClient } from "../onchain/esplora";
import type { GossipSync } from "./gossip-sync";
import type { LightningNode } from "./node";
import type { FetchFn } from "../http/bounded";
import type { LspSchema } from "./lsp-http";
import type { Lsps2Client } from "./lsps2";
import type { PeerAddress, WebSocketFactory } from "./socket";
import type { BlobStore } from "./store";
import type { SealedStore } from "../storage/sealed";
import type { PreparedRequest } from "../storage/vss-client";
import type { OpenedFrom, ServerBehind } from "../storage/mirrored-store";

/** The LSP's node: as its `GET /api/v1/info` describes it, or from an LSPS connection string. */
export interface LspInfo {
  readonly pubkey: string;
  readonly address: PeerAddress;
}

/**
 * The wallet's lightning service (spec 2 servers): an HTTP LSP (`lsp`), or an LSPS2 LSP reached over the
 * lightning connection (`connectionString`, `pubkey@host:port`, with its `token`); null when not set.
 */
export interface LspSettings {
  readonly lsp: string | null;
  readonly connectionString: string | null;
  readonly token: string | null;
}

export interface Funding {
  readonly tx: Uint8Array;
  readonly txid: string;
  readonly feeSats: bigint;
}

export interface LightningDeps {
  readonly mnemonic: string;
  readonly network: Network;
  readonly esplora: EsploraClient;
  readonly store: BlobStore;
  /** The WebSocket-to-TCP proxy, or null to dial peers' WebSockets directly. */
  readonly proxy: string | null;
  /** The configured LSP's base URL, or null. */
  readonly lsp: string | null;
  /** An LSPS2 LSP instead of the HTTP one: its connection string and token. */
  readonly lsps?: { readonly connectionString: string; readonly token: string } | null;
  readonly makeSocket: WebSocketFactory;
  readonly fetch: FetchFn;
  /** The rapid gossip sync server's snapshot URL (the `rgs` setting), or null to route with hints only. */
  readonly rgs?: string | null;
  /** A server handing out a trained scorer (the `scorer` setting), or null. */
  readonly scorer?: string | null;
  /** Resolves once home is usable: the graph's first sync waits for it (absent: none to wait for). */
  readonly homeShown?: () => Promise<void>;
  /** Signs (without broadcasting) an on-chain payment of `sats` to `script`, recording it. */
  readonly fund: (script: Uint8Array, sats: bigint) => Promise<Funding>;
  /** A fresh script of the on-chain wallet for swept outputs. */
  readonly sweepScript: () => Promise<Uint8Array>;
  /** Appends events to the log (in order, after the command running now). */
  readonly record: (events: readonly NewEvent[]) => void;
  /** The channels the log knows, to record a change only when there is one. */
  readonly knownChannels: () => readonly ChannelSnapshot[];
  /** The opening fee an LSP promised for a payment to our invoice `paymentHash` (msat), or null. */
  readonly promisedLspFee?: (paymentHash: string) => bigint | null;
  /** The delay the node asks with `lsp` (an LSPS2 LSP's pubkey) as its LSP: what the owner accepted, or two weeks. */
  readonly toSelfDelay?: (lsp: string | null) => number;
  /** The lightning service a change made while the wallet runs (it outlives a restart of the node); null: none. */
  readonly lspSettings?: () => LspSettings | null;
  /** Something the engine did touched the chain (a sweep, a funding): the on-chain wallet should look. */
  readonly onChainActivity: () => void;
  /** Live peer and node state changed (not an event). */
  readonly onLive: () => void;
  /** The node, starting, got as far as restoring its channels, then as its first chain sync. */
  readonly onStage?: (stage: "restoring" | "syncing") => void;
  /** LDK failed while running (a panic inside its wasm): the node stopped; `message` says so. */
  readonly onFailed?: (message: string) => void;
  /** The node started from its saved state: how many blocks went by while the wallet was closed. */
  readonly onClosedFor?: (closed: ClosedFor) => void;
  /** The watchtower's base URL (the `tower` setting): appointments go there after each payment; null: none. */
  readonly tower?: string | null;
  /** The storage server's base URL (the `storage` setting): the channel state is kept there too; null: not. */
  readonly storage?: string | null;
  /** A write of the channel state waits for the storage server (`true`), or got through again (`false`). */
  readonly onStorageWaiting?: (waiting: boolean) => void;
  /** Another device runs this wallet's node: its lock runs out in `remainingSecs` unless it refreshes it. */
  readonly onAlreadyRunning?: (remainingSecs: number) => void;
  /** The request that gives the device lock up, for the page to send as it closes; null once not held. */
  readonly onLockRelease?: (request: PreparedRequest | null) => void;
  /** The storage server held an older state than this device (or one it did not seal): the node goes on from this device's. */
  readonly onServerBehind?: (behind: ServerBehind) => void;
}

/** What the wallet's host gives the engine: the seed, its store, and the on-chain wallet. */
export type LightningHooks = Pick<
  LightningDeps,
  | "mnemonic"
  | "store"
  | "fund"
  | "sweepScript"
  | "record"
  | "knownChannels"
  | "promisedLspFee"
  | "toSelfDelay"
  | "lspSettings"
  | "onChainActivity"
  | "onLive"
  | "onStage"
  | "onFailed"
  | "onClosedFor"
  | "onStorageWaiting"
  | "onAlreadyRunning"
  | "onServerBehind"
>;

/** The servers a wallet's engine talks to (its `WalletConfig`). */
export interface LightningServers {
  readonly network: Network;
  readonly esplora: string;
  readonly proxy: string | null;
  readonly lsp: string | null;
  /** The trained scorer's server, or null. */
  readonly scorer?: string | null;
  /** Every server setting; the LSPS connection string and token are read from here. */
  readonly servers?: Pick<Servers, "lsps_connection_string" | "lsps_token"> &
    Partial<Pick<Servers, "rgs" | "storage" | "tower">>;
}

/** Why the lightning service could not be changed: 'Failed to make a request to the LSP.' */
export class LspChangeError extends Error {}

/** The wallet's store on the storage server while this device holds its lock (`remote.ts`). */
export interface RemoteStore {
  readonly sealed: SealedStore;
  readonly url: string;
  /** Where the channel state the node started on came from ("remote": another device's, a restore). */
  readonly from: OpenedFrom;
  readonly held: () => boolean;
}

export interface LightningPort {
  readonly node: LightningNode;
  /** The storage server's store, when the `storage` setting is set; null otherwise. */
  readonly remote: RemoteStore | null;
  readonly logs: () => string[];
  /** The LSP's node, fetched once; null when none is configured. */
  readonly lsp: () => Promise<LspInfo | null>;
  /**
   * POSTs JSON to the configured LSP's HTTP API (`path` under `{lsp}/api/v1/`), bounded by `LSP_LIMITS`;
   * answers what `schema` reads of its JSON. Throws `LspRequestError` with the LSP's own words when it
   * refuses, or when none is configured, it is unreachable, silent past the deadline or answers nonsense.
   */
  readonly lspPost: <T>(path: string, body: unknown, schema: LspSchema<T>) => Promise<T>;
  /** The LSPS2 client of the configured LSP, or null when the LSP is an HTTP one (or none). */
  readonly lsps2: () => Lsps2Client | null;
  /** The lightning service in use (get_configured_lsp). */
  readonly lspSettings: () => LspSettings;
  /** The `to_self_delay` this node asks of partners that open a channel with it (blocks). */
  readonly toSelfDelay: number;
  /**
   * Switches to another lightning service once it answered (an HTTP LSP its info, an LSPS2 LSP its fee
   * menu for the token); throws `LspChangeError` and keeps the current one otherwise.
   */
  readonly changeLsp: (settings: LspSettings) => Promise<void>;
  readonly connect: (peer: PeerAddress) => Promise<void>;
  /**
   * Resolves once the channel `openChannel` answered `temporaryId` for has its funding transaction out (its
   * final id); rejects with why when the open failed first, or after `timeoutMs`.
   */
  readonly whenFunded: (temporaryId: string, timeoutMs: number) => Promise<string>;
  /** The network graph's sync from the `rgs` setting (null when none is set): `fresh()` before a payment. */
  readonly gossip: GossipSync | null;
  /** Brings the node up to the chain tip now (also done every `CHAIN_SYNC_MS`). */
  readonly sync: () => Promise<void>;
  readonly stop: () => Promise<void>;
}
