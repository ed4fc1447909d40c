import type { WalletConfig } from "../config";
import type { AllViews } from "../projections/live";
import type { Command } from "./command";
import type { WireError } from "../errors";

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

export type ToWorker =
  | { readonly kind: "start"; readonly config: WalletConfig }
  | { readonly kind: "command"; readonly id: number; readonly command: Command }
  | { readonly kind: "stop" }
  /** Home is drawn with the worker's views and the browser went idle: background work may begin. */
  | { readonly kind: "home_shown" }
  /** The browser is back online, or the page is shown again: the node redials its peers at once. */
  | { readonly kind: "wake" };

/**
 * A request the worker made ready for the page to send as it closes, when the worker may already be gone:
 * the device lock's release on the storage server (signed, conditional on the lock's version).
 */
export interface ClosingRequest {
  readonly url: string;
  readonly headers: { readonly [name: string]: string };
  readonly body: Uint8Array;
}

export type FromWorker =
  | { readonly kind: "stage"; readonly stage: LoadStage }
  | { readonly kind: "views"; readonly views: Partial<AllViews> }
  | { readonly kind: "result"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: "result"; readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly kind: "boot_error"; readonly message: string }
  | { readonly kind: "stopped" }
  /** The request to send as the page closes (null: none, the lock is not held or was given up). */
  | { readonly kind: "lock_release"; readonly request: ClosingRequest | null };
