/**
 * The folded log kept in the wallet's database, so a start folds only the events after it instead of the
 * whole log (a wallet of 1,000 contacts and 5,000 payments took seconds to refold, most of it replaying the
 * owner's edits into Automerge). An optimisation, never a source of truth: a snapshot that does not fit the
 * log on disk (another fold's code, a log replaced or emptied since, an event missing) is ignored and the
 * log is folded from its start.
 *
 * It holds nothing the log does not: the folds' states are made of the events, which lie in the same
 * database as they are; secrets (the seed, engine blobs) never pass through a fold.
 */
import { type Doc, loadDocBytes, saveDocBytes } from "../../crdt/doc";
import type { StoredEvent, WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { foldEvents, type States } from "../../projections";

/** The row of the `snapshots` table that holds the folded states. */
export const STATES_SNAPSHOT = "states";

/** The folds' code that made a snapshot: one made by other code is never read. */
export const FOLD_VERSION = `1:${typeof __FOLD_VERSION__ === "string" ? __FOLD_VERSION__ : "dev"}`;

/** How long after a change the snapshot is written: a burst of commits (a sync) writes it once. */
export const SNAPSHOT_DELAY_MS = 1500;

interface StatesSnapshot {
  readonly fold: string;
  /** The id of the event at `seq`, the last one it covers. */
  readonly last: string;
  /** Every fold's state but the document's (structured-cloned by IndexedDB: Maps, Sets, bigints). */
  readonly states: Omit<States, "crdt">;
  /** The owner-edited document as Automerge saves it, or null before any edit. */
  readonly crdt: Uint8Array | null;
}

/**
 * The log on disk as the views start from it: the snapshot's states with the events after it folded in, or
 * null when there is no snapshot that fits (the caller folds the whole log). `crdtReady` is awaited before
 * the saved document is loaded or an owner edit is folded.
 */
export const openFromSnapshot = async (
  db: WalletDb,
  crdtReady: PromiseLike<void>,
): Promise<{ states: States; last: string } | null> => {
  const row = await db.snapshots.get(STATES_SNAPSHOT).catch(() => undefined);
  const snap = row?.state as StatesSnapshot | undefined;
  if (!row || !snap || snap.fold !== FOLD_VERSION || row.seq < 1) return null;
  // The event it ends with, and everything after it.
  const events = await readEvents(db, row.seq - 1);
  const [at, ...tail] = events;
  if (at?.seq !== row.seq || at.id !== snap.last) return null;
  if (snap.crdt || tail.some((e) => e.type === "crdt.change")) await crdtReady;
  const states: States = { ...snap.states, crdt: snap.crdt ? loadDocBytes(snap.crdt) : null };
  return { states: foldEvents(tail, states), last: (events[events.length - 1] as StoredEvent).id };
};

/**
 * Writes the snapshot a moment after the log changed, off the command's path: `changed` is told each time
 * the host folds new events (with the last of them), and the write runs in the command queue (`enqueue`),
 * so it never sees a log being replaced halfway. The document is saved again only when it changed.
 */
export class SnapshotKeeper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saved: { doc: Doc; bytes: Uint8Array } | null = null;
  private stopped = false;
  /** The seq of the last event folded into `states`. */
  private seq: number;
  /**
   * Events reached the log that the states never folded (written past the host): a snapshot of these
   * states would hide them from the next start, so none is kept until the states are folded anew.
   */
  private gap = false;

  constructor(
    private readonly db: WalletDb,
    private readonly states: () => States,
    private readonly enqueue: (f: () => Promise<void>) => Promise<void>,
    /** The id of the last event folded into `states`, or null for an empty log. */
    private last: string | null,
    private readonly delayMs = SNAPSHOT_DELAY_MS,
  ) {
    this.seq = states().seq;
  }

  /** The host folded `events` (the newest last), or replaced its states with a fold ending at `last`. */
  changed(
    events: readonly { readonly id: string; readonly seq?: number }[],
    replaced?: { last: string | null },
  ): void {
    if (replaced) {
      this.last = replaced.last;
      this.seq = this.states().seq;
      this.gap = false;
    } else if (events.length > 0) {
      const first = events[0]?.seq;
      if (first !== undefined && first !== this.seq + 1) this.gap = true;
      this.seq = events[events.length - 1]?.seq ?? this.seq + events.length;
      this.last = (events[events.length - 1] as { id: string }).id;
    }
    this.schedule();
  }

  /** Asks for a write soon (after a start that folded the whole log). */
  schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.enqueue(() => this.write()).catch(() => undefined);
    }, this.delayMs);
  }

  /** Writes a snapshot still waiting for its moment now (the wallet is stopping), then writes no more. */
  async stop(): Promise<void> {
    const pending = this.timer !== null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (pending) await this.write().catch(() => undefined);
    this.stopped = true;
  }

  /** Writes the states as they are now. */
  async write(): Promise<void> {
    if (this.stopped) return;
    if (this.gap) {
      await this.db.snapshots.delete(STATES_SNAPSHOT);
      return;
    }
    const { crdt, ...rest } = this.states();
    const last = this.last;
    if (last === null || rest.seq < 1) return;
    let bytes: Uint8Array | null = null;
    if (crdt) {
      if (this.saved?.doc !== crdt) this.saved = { doc: crdt, bytes: saveDocBytes(crdt) };
      bytes = this.saved.bytes;
    }
    // Copied now: folds change their states in place, and the write below waits on the database.
    const state: StatesSnapshot = { fold: FOLD_VERSION, last, states: structuredClone(rest), crdt: bytes };
    await this.db.snapshots.put({ name: STATES_SNAPSHOT, seq: rest.seq, state });
  }
}
