/**
 * What a host opens with: its dependencies, the device's id, the log folded (in emergency mode, what can be
 * read of it) and the live state before anything ran.
 */
import type { AnyEngine, Platform } from "../../engine/engine";
import type { KdfParams } from "../../engine/vault";
import type { StoredEvent, WalletDb } from "../../events/db";
import { readEvents, readKv } from "../../events/log";
import type { Stamp } from "../../events/make";
import { KV } from "../../events/storage-keys";
import { foldEvent, foldEvents, type States } from "../../projections";
import { openFromSnapshot } from "./snapshot";
import type { AllViews, LiveState } from "../../projections/live";
import type { WalletConfig } from "../../config";
import type { Written } from "../lifecycle-port";
import type { StateCipher } from "../wallet";

export interface HostDeps {
  readonly db: WalletDb;
  readonly config: WalletConfig;
  readonly cipher: StateCipher;
  /** Called with the views after every change of the log or of the live state. */
  readonly onViews: (views: Partial<AllViews>) => void;
  readonly uuid?: () => string;
  readonly now?: () => number;
  /** The engines this host runs, in start order, and the platform they run on; none when absent. */
  readonly engines?: { readonly list: readonly AnyEngine[]; readonly platform: Platform };
  /** Called when a locked wallet becomes usable: the right password, or its removal by a restore. */
  readonly onUnlocked?: () => void;
  /** KDF parameters for a new password (tests use weak ones to stay fast). */
  readonly kdf?: KdfParams;
  /**
   * Resolves once Automerge's wasm is loaded; absent when it already is. A log without owner edits opens,
   * and a new wallet is created, before it: everything else that may touch the document waits for it.
   */
  readonly crdtReady?: Promise<void>;
  /**
   * Emergency mode: the wallet failed to start and the owner opened the emergency kit. The host runs no
   * engines, opens even when Automerge cannot load or an event cannot be read (those are left out of the
   * views; the log on disk is untouched and a saved state file still carries every event).
   */
  readonly emergency?: boolean;
}

/**
 * The device's id (made on first open) and the log as the views start from it: from the snapshot of the
 * folded log and the events after it when one fits (`snapshot.ts`), else the whole log folded. `last`
 * is the id of the newest event folded; `fromSnapshot` says whether the snapshot was used.
 */
export const openLog = async (
  deps: HostDeps,
): Promise<{ stamp: Stamp; states: States; last: string | null; fromSnapshot: boolean }> => {
  const uuid = deps.uuid ?? (() => crypto.randomUUID());
  const stampOf = (device: string): Stamp => ({ uuid, now: deps.now ?? (() => Date.now()), device });
  // Emergency mode folds what it can read of the whole log: a snapshot is neither read nor written there.
  const [stored, resumed] = await Promise.all([
    readKv<string>(deps.db, KV.device),
    deps.emergency ? null : openFromSnapshot(deps.db, deps.crdtReady ?? Promise.resolve()).catch(() => null),
  ]);
  let device = stored;
  if (!device) {
    device = uuid().replaceAll("-", "");
    await deps.db.kv.put({ key: KV.device, value: device });
  }
  if (resumed)
    return { stamp: stampOf(device), states: resumed.states, last: resumed.last, fromSnapshot: true };
  const events = await readEvents(deps.db);
  let crdt = true;
  if (events.some((e) => e.type === "crdt.change"))
    crdt = await (deps.crdtReady ?? Promise.resolve()).then(
      () => true,
      (e) => {
        if (!deps.emergency) throw e;
        return false;
      },
    );
  const states = deps.emergency ? foldReadable(events, crdt) : foldEvents(events);
  return { stamp: stampOf(device), states, last: events.at(-1)?.id ?? null, fromSnapshot: false };
};

/**
 * The fold of emergency mode: every event it can read, in order; one it cannot (or, without Automerge, an
 * owner edit) is left out of the views so the kit still opens. Nothing is removed from the log.
 */
const foldReadable = (events: readonly StoredEvent[], crdt: boolean): States => {
  let states = foldEvents([]);
  for (const e of events) {
    if (!crdt && e.type === "crdt.change") continue;
    try {
      states = foldEvent(states, e);
    } catch {
      // left out of the views only
    }
  }
  return states;
};

/** The live state before any engine ran or any sync was made. */
export const liveAtStart = (secrets: { locked: boolean; hasPassword: boolean }): LiveState => ({
  price: null,
  fiat: "BTC",
  is_syncing: false,
  last_sync: null,
  sync_error: null,
  lightning: "off",
  lightning_stage: null,
  lightning_error: null,
  node_id: null,
  online_peers: [],
  usable_channels: [],
  needs_password: secrets.locked,
  has_password: secrets.hasPassword,
});

/**
 * The states after an import or a delete, when the log on disk is the truth again: the whole log folded
 * anew, a replaced log's fold, or the written events folded onto `states`; with what the kept fold learns
 * of it (`SnapshotKeeper.changed`).
 */
export const refold = async (
  db: WalletDb,
  states: States,
  written: Written | undefined,
): Promise<{ states: States; events: readonly StoredEvent[]; replaced?: { last: string | null } }> => {
  if (!written) {
    const events = await readEvents(db);
    return { states: foldEvents(events), events: [], replaced: { last: events.at(-1)?.id ?? null } };
  }
  if (written.replaced) {
    const last = written.events.at(-1)?.id ?? null;
    return { states: written.folded ?? foldEvents(written.events), events: [], replaced: { last } };
  }
  return { states: written.events.reduce(foldEvent, states), events: written.events };
};
