import type { Servers } from "../config";
import type { Network } from "../events/types";
import type { Views } from "../projections";
import type { Command } from "./command";
import type { WireError } from "./errors";

/** Where the wallet talks to the chain and prices; chosen at build time or in settings. */
export interface WalletConfig {
  readonly network: Network;
  readonly esplora: string;
  /** URL template of the price feed, `{code}` replaced by the fiat code. */
  readonly priceSource: string;
  /** The WebSocket-to-TCP proxy for reaching lightning peers, or null to dial their WebSockets. */
  readonly proxy: string | null;
  /** The LSP's base URL, or null. */
  readonly lsp: string | null;
  /** Every server of the settings page (lsp, proxy, rgs, storage, ...), as resolved at start. */
  readonly servers?: Servers;
}

/** Boot stages of spec 1 §4, shown as progress 0 to 5. */
export const LOAD_STAGES = [
  "fresh",
  "checking_double_init",
  "downloading",
  "checking_for_existing_wallet",
  "setup",
  "done",
] as const;
export type LoadStage = (typeof LOAD_STAGES)[number];

/**
 * How far the lightning node got while it starts, after the wallet's own boot: LDK's wasm loading, its
 * channels restored from the store, then its first look at the chain. Ready follows.
 */
export const LIGHTNING_STAGES = ["loading", "restoring", "syncing"] as const;
export type LightningStage = (typeof LIGHTNING_STAGES)[number];

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
  readonly node_id: string | null;
  /** Public keys of the lightning peers connected now. */
  readonly online_peers: readonly string[];
  /** Channels that can pay and be paid right now (ready, peer connected, re-established). */
  readonly usable_channels: readonly string[];
  /** A password is set and has not been entered yet: the decrypt dialog is open. */
  readonly needs_password: boolean;
  /** The seed and engine blobs are encrypted at rest with the owner's password. */
  readonly has_password: boolean;
}

export type AllViews = Views & { readonly live: LiveState };

export type ToWorker =
  | { readonly kind: "start"; readonly config: WalletConfig }
  | { readonly kind: "command"; readonly id: number; readonly command: Command }
  | { readonly kind: "stop" };

export type FromWorker =
  | { readonly kind: "stage"; readonly stage: LoadStage }
  | { readonly kind: "views"; readonly views: Partial<AllViews> }
  | { readonly kind: "result"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: "result"; readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly kind: "boot_error"; readonly message: string }
  | { readonly kind: "stopped" };
