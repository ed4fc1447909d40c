/**
 * One state for "the storage server is waited for" (the banner on home), fed by everything that writes
 * there: the channel store's writes (the lightning engine's mirrored store) and the wallet's log sync
 * (`hooks.ts`). Each says for itself whether it waits; the banner shows while any of them does, so
 * one getting through never hides another still waiting.
 */
import type { LiveState, StorageWaitSource } from "../../projections/live";

export interface LiveHolder {
  readonly live: () => LiveState;
  readonly setLive: (patch: Partial<LiveState>) => void;
}

/** The live state's change when `source` starts or stops waiting; null when nothing changes. */
export const storageWaitingPatch = (
  live: LiveState,
  source: StorageWaitSource,
  waiting: boolean,
): Partial<LiveState> | null => {
  const before = live.storage_waiting_for ?? [];
  if (before.includes(source) === waiting) return null;
  const after = waiting ? [...before, source].sort() : before.filter((s) => s !== source);
  return { storage_waiting_for: after, storage_waiting: after.length > 0 };
};

/** Says that `source` waits for the storage server, or got through again. */
export const setStorageWaiting = (host: LiveHolder, source: StorageWaitSource, waiting: boolean): void => {
  const patch = storageWaitingPatch(host.live(), source, waiting);
  if (patch) host.setLive(patch);
};

/** Nothing waits any more: the node stopped or starts again (its writes and the log's sync with it). */
export const NOTHING_WAITS: Partial<LiveState> = { storage_waiting: false, storage_waiting_for: [] };
