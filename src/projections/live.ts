import type { Views } from "./index";

/**
 * How far the lightning node got while it starts, after the wallet's own boot: LDK's wasm loading, its
 * channels restored from the store, then its first look at the chain. Ready follows.
 */
export const LIGHTNING_STAGES = ["loading", "restoring", "syncing"] as const;
export type LightningStage = (typeof LIGHTNING_STAGES)[number];

/**
 * What a start brought back from the storage server: another device's channel state and log (a restore on
 * a new browser, or a device taking over). Amounts are decimal sats.
 */
export interface StorageRestore {
  /** Channels the node started with, from the server's state, and what they hold for the wallet. */
  readonly channels: number;
  readonly channel_sats: string;
  /** Entries of the history brought in, and the contacts the wallet now has. */
  readonly events: number;
  readonly contacts: number;
  /** Ecash custodians joined (their names): Cashu mints come back with the log and the words. */
  readonly mints: readonly string[];
  /** Federations (their names) whose ecash the words cannot bring back: their client's secret is its own. */
  readonly lost_federations: readonly string[];
}

/** What may wait for the storage server: the channel store's writes, the wallet's log. */
export type StorageWaitSource = "channels" | "log";

/** A lightning peer's connection as the screens show it. */
export interface PeerLink {
  readonly pubkey: string;
  readonly state: "connecting" | "connected" | "unreachable";
  readonly since: number;
}

/** Live state that is not a fold of the log: it changes with the world, not with events. */
export interface LiveState {
  readonly price: string | null;
  /** The fiat shown: the chosen one, or BTC while the price feed is failing. */
  readonly fiat: string;
  readonly is_syncing: boolean;
  readonly last_sync: number | null;
  readonly sync_error: string | null;
  /** The lightning node: not started, loading, running, failed, or kept off by safe mode. */
  readonly lightning: "off" | "starting" | "ready" | "failed" | "safe_mode";
  /** While `lightning` is starting, its stage; null otherwise. */
  readonly lightning_stage: LightningStage | null;
  readonly lightning_error: string | null;
  /**
   * The node stopped, or could not start, because a server went away, and starts again by itself (with a
   * capped back-off) until it runs: home says so in one line, and that on-chain and ecash still work.
   */
  readonly lightning_retrying?: boolean;
  readonly node_id: string | null;
  /** Public keys of the lightning peers connected now. */
  readonly online_peers: readonly string[];
  /** Channels that can pay and be paid right now (ready, peer connected, re-established). */
  readonly usable_channels: readonly string[];
  /**
   * Each peer the node keeps connected (one it has a channel with, the LSP while an invoice is open):
   * dialling, connected, or unreachable for a while; `since` is when that began (unix ms).
   */
  readonly peer_status?: readonly PeerLink[];
  /** A password is set and has not been entered yet: the decrypt dialog is open. */
  readonly needs_password: boolean;
  /** The seed and engine blobs are encrypted at rest with the owner's password. */
  readonly has_password: boolean;
  /** The nostr relays in use and whether each is connected now (empty while the nostr engine is off). */
  readonly nostr_relays?: readonly { readonly url: string; readonly connected: boolean }[];
  /**
   * Something waits for the storage server (a write of the channel state: payments wait until it is back;
   * or the wallet's log): true while `storage_waiting_for` names any.
   */
  readonly storage_waiting?: boolean;
  /** What waits for the storage server now (`src/commands/storage/waiting.ts` keeps both fields). */
  readonly storage_waiting_for?: readonly StorageWaitSource[];
  /**
   * Another device runs this wallet's node: the seconds its device lock had left when this one tried to
   * start (the "already running" countdown); null otherwise.
   */
  readonly lock_remaining_secs?: number | null;
  /**
   * The storage server held an older state of the channels than this device (or one the wallet did not seal
   * there): the node went on from this device's state and wrote it to the server again. Which save each
   * held (the store's global version, decimal; when it was made, ms, 0 unknown); null when not.
   */
  readonly storage_behind?: {
    readonly device: string;
    readonly device_at: number;
    readonly server: string;
    readonly server_at: number;
    readonly forged: boolean;
  } | null;
  /** What this start brought back from the storage server; null when nothing (or it was dismissed). */
  readonly storage_restore?: StorageRestore | null;
  /** How many private messages the live relay subscription recorded since the wallet opened (an open chat reads itself again when it grows). */
  readonly messages_arrived?: number;
  /**
   * How long the wallet was closed before this start, in blocks, and the most it may be without a
   * watchtower (the delay its channel partners must wait); null before the node has started this time.
   */
  readonly closed_for?: { readonly blocks: number; readonly limit_blocks: number } | null;
}

export type AllViews = Views & { readonly live: LiveState };
