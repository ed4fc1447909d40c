/**
 * The wallet's log kept on the storage server beside the channel state (`log-sync.ts`): synced once the
 * node runs on the server's state (this device holds the device lock), and again after each commit, one
 * sync at a time. A first sync on a new browser says what came back and what could not
 * (`live.storage_restore`, the restore card on home).
 *
 * In safe mode no node runs, so none holds the lock: the log is kept in step all the same whenever no other
 * device holds it (the journal's conditional appends keep a race from losing an event). Otherwise what this
 * device recorded, or what another one did, would wait for lightning to run again, and recovering ecash,
 * which needs the log in step (`historyBack`), would be refused for as long as safe mode lasts.
 */
import { type LightningPort, snapshotOf } from "../../engine/lightning/live";
import { noEdits } from "../../projections/crdt";
import { lightningBalance, lightningPending } from "../../projections/lightning";
import { fundingGoneIn } from "../../projections/onchain";
import type { StorageRestore } from "../../projections/live";
import type { States } from "../../projections";
import type { Attachment, HostSide } from "../attached";
import { openWalletStores, type SealedStore } from "../../engine/storage";
import { type LogSyncResult, noOtherDeviceRuns, syncLog } from "./log-sync";
import { setStorageWaiting } from "./waiting";

/** How long after a commit the log is sent (commits close together make one append). */
export const LOG_SYNC_DELAY_MS = 500;
/** How long after a sync the server refused (or did not answer) the log is sent again. */
export const LOG_RETRY_MS = 5_000;
/** How long a stop waits for the last events to reach the server before the node gives up its lock. */
export const LOG_STOP_WAIT_MS = 10_000;

/**
 * What the start brought back, from the node's channels and the merged log. The channels and what they hold
 * are the wallet's own figures (the balance card's lightning, open and opening): a channel whose funding
 * never reached the chain holds nothing and is not counted.
 */
export const restoreSummary = (ln: LightningPort, states: States, pulled: number): StorageRestore => {
  const gone = fundingGoneIn(states.onchain);
  const node = { channels: snapshotOf(ln.node.channels()) };
  const custodians = [...states.ecash.custodians.values()].filter((c) => c.joined);
  return {
    channels: node.channels.filter((c) => !gone(c.outpoint)).length,
    channel_sats: (lightningBalance(node, gone) + lightningPending(node, gone)).toString(),
    events: pulled,
    contacts: Object.keys((states.crdt ?? noEdits).contacts ?? {}).length,
    mints: custodians.filter((c) => c.kind === "cashu").map((c) => c.name),
    lost_federations: custodians.filter((c) => c.kind === "fedimint").map((c) => c.name),
  };
};

export const storageAttachment = (side: HostSide): Attachment => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  /** The first sync since the node started (it may bring another device's log in). */
  let fresh = true;
  /** The wallet runs without lightning (safe mode): no node takes the lock, the log is synced without it. */
  let lightningOff = false;
  let opened: { key: string; store: SealedStore; lock: SealedStore } | null = null;
  const remote = () => {
    const ln = side.engines.port("lightning");
    return ln?.remote?.held() ? { ln, remote: ln.remote } : null;
  };
  /** The storage server's store when no node runs here, if no other device holds the lock; else null. */
  const withoutNode = async (): Promise<{ store: SealedStore; url: string } | null> => {
    const url = side.config.servers?.storage;
    const words = lightningOff && url && !side.emergency ? await side.mnemonic() : null;
    if (!url || !words) return null;
    const key = `${url} ${words}`;
    if (opened?.key !== key)
      opened = { key, ...openWalletStores(url, words, side.config.network, side.fetch) };
    return (await noOtherDeviceRuns(side.blobs, opened.lock)) ? { store: opened.store, url } : null;
  };
  const once = async (last = false): Promise<void> => {
    if (side.stopped() && !last) return;
    const r = remote();
    let result: LogSyncResult;
    try {
      const to = r ? { store: r.remote.sealed, url: r.remote.url } : await withoutNode();
      if (!to) {
        // Another device runs the node (it keeps the log), or the server did not say: asked again shortly.
        if (lightningOff && side.config.servers?.storage && !last) schedule(LOG_RETRY_MS);
        return;
      }
      result = await syncLog({
        db: side.db,
        local: side.blobs,
        store: to.store,
        url: to.url,
        merge: side.merge,
      });
    } catch {
      // The server refused or could not be reached: the log stays here, the banner says the server is
      // waited for, and it is sent again shortly (or at the next commit). The last sync of a node that is
      // stopping is not sent again: the next start sends it, and until then lightning's own line speaks.
      if (last) return;
      setStorageWaiting(side, "log", true);
      schedule(LOG_RETRY_MS);
      return;
    }
    setStorageWaiting(side, "log", false);
    if (fresh && r) {
      fresh = false;
      if (result.first && (result.pulled > 0 || r.remote.from === "remote"))
        side.setLive({ storage_restore: restoreSummary(r.ln, side.states(), result.pulled) });
    }
  };
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = once().finally(() => {
      running = null;
      if (again) {
        again = false;
        schedule(LOG_SYNC_DELAY_MS);
      }
    });
  };
  const schedule = (ms: number) => {
    if (timer || side.stopped()) return;
    timer = setTimeout(() => {
      timer = null;
      run();
    }, ms);
  };
  return {
    status: (name, status) => {
      if (name !== "lightning") return;
      lightningOff = status.state === "not_needed";
      if (status.state === "ready") fresh = true;
      // At once, ahead of a retry still waiting its turn: what waited for the server goes now.
      if (status.state === "ready" || lightningOff) {
        if (timer) clearTimeout(timer);
        timer = null;
        schedule(0);
      }
    },
    committed: () => {
      if (remote() || lightningOff) schedule(LOG_SYNC_DELAY_MS);
    },
    // The events recorded since the last sync go up before the node stops and gives up the lock.
    stop: async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!remote() && !lightningOff) return;
      let waited: ReturnType<typeof setTimeout> | undefined;
      const last = (running ?? Promise.resolve()).then(() => once(true));
      await Promise.race([last, new Promise((r) => (waited = setTimeout(r, LOG_STOP_WAIT_MS)))]);
      clearTimeout(waited);
    },
  };
};
