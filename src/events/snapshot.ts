import type { AllViews } from "../projections/live";
import type { WalletDb } from "./db";

/** The table of the wallet's database that keeps the snapshots, and the display snapshot's row in it. */
export const SNAPSHOTS_TABLE = "snapshots";
export const VIEWS_SNAPSHOT = "views";
const VIEWS = VIEWS_SNAPSHOT;

/**
 * The views last shown, kept so the next start can show home before the log is folded (the page reads
 * them itself too, before its worker has started: `src/views-cache.ts`). A display
 * cache only: the fold of the log replaces it as soon as it is ready, and deleting or replacing the
 * wallet clears it with the log.
 */
export const saveViewsSnapshot = (db: WalletDb, views: AllViews): Promise<unknown> =>
  db.snapshots.put({
    name: VIEWS,
    seq: 0,
    // What was live then is not now: the next start shows no sync running and no peer connected.
    state: {
      ...views,
      live: views.live
        ? {
            ...views.live,
            is_syncing: false,
            lightning: "off",
            lightning_stage: null,
            online_peers: [],
            usable_channels: [],
            // Nothing waits for the storage server while the node is off.
            storage_waiting: false,
            storage_waiting_for: [],
            // What a start brought back from the storage server is told once, by that start.
            storage_restore: null,
            // How long the wallet was closed is told by the start that measured it.
            closed_for: null,
          }
        : views.live,
    },
  });

export const readViewsSnapshot = async (db: WalletDb): Promise<Partial<AllViews> | null> => {
  const row = await db.snapshots.get(VIEWS);
  const state = row?.state as Partial<AllViews> | undefined;
  return state?.wallet?.exists ? state : null;
};
