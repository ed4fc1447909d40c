import { walletDbName } from "./events/db-name";
import { SNAPSHOTS_TABLE, VIEWS_SNAPSHOT } from "./events/snapshot";
import type { Network } from "./events/types";
import type { AllViews } from "./projections/live";

/**
 * The views the worker showed last (the display snapshot it keeps in the wallet's database), read by the
 * page itself with the bare IndexedDB API: no Dexie, no worker, no wasm. A returning wallet draws home from
 * them while its worker and engines are still on their way. Null when there is no wallet, no snapshot, or
 * the browser cannot say; never creates the database, never holds it open.
 */
export const readViewsCache = (
  network: Network,
  idb: IDBFactory | undefined = globalThis.indexedDB,
): Promise<Partial<AllViews> | null> =>
  new Promise((resolve) => {
    if (!idb) return resolve(null);
    let request: IDBOpenDBRequest;
    try {
      request = idb.open(walletDbName(network));
    } catch {
      return resolve(null);
    }
    // No database yet: opening it would make an empty one, so the attempt is called off.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      // The worker may need to upgrade the database: this page lets go at once.
      db.onversionchange = () => db.close();
      try {
        const get = db
          .transaction(SNAPSHOTS_TABLE, "readonly")
          .objectStore(SNAPSHOTS_TABLE)
          .get(VIEWS_SNAPSHOT);
        get.onsuccess = () => {
          db.close();
          const state = (get.result as { state?: Partial<AllViews> } | undefined)?.state;
          resolve(state?.wallet?.exists ? state : null);
        };
        get.onerror = () => {
          db.close();
          resolve(null);
        };
      } catch {
        db.close();
        resolve(null);
      }
    };
  });
