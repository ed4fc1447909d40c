/**
 * The rule that keeps a lightning wallet's money safe (ARCHITECTURE.md rule 3): nothing leaves the node
 * before the state it comes from is durable.
 *
 * - Bytes for peers, transactions to broadcast, events for the wallet and answers to waiting payments are
 *   held (`hold`), and released only once a write of the channel manager together with every changed
 *   channel monitor has landed (`persistState`, at the end of every tick). A crash before that write loses
 *   only state nobody outside has seen; the store holds a manager and monitors taken at the same instant,
 *   so a monitor is never ahead of its manager nor behind what the peer has seen.
 * - LDK is therefore told each monitor update is `Completed` at once: its synchronous persistence mode.
 *   The asynchronous `InProgress` mode is marked beta by LDK ("may lead to funds loss"), and LDK 0.1.0, the
 *   version pinned here, cannot read back a manager written while a received payment's claim was in flight
 *   next to a monitor that already holds the preimage (`DecodeError::InvalidValue`): with updates left
 *   `InProgress` that pair of files exists for a moment on every received payment. Upstream fixed the reader
 *   later ("Do not fail to load `ChannelManager` when we see claiming payments"). See
 *   docs/decisions/0001-lightning-output-commit.md.
 * - A write that fails stops the node: LDK is never told something is durable when it is not.
 *
 * The crash property (`property-tests/lightning-crash.test.ts`, payments both ways, a crash at a random
 * write) and the test that reopens every state the store ever held prove it.
 */
import * as ldk from "lightningdevkit";
import type { EsploraChain, Log } from "./chain";
import { displayHex } from "./chain";
import { ARCHIVE_PREFIX, type BlobStore, type BlobWrite, MANAGER_KEY, MONITOR_PREFIX } from "./store";

const monitorKey = (outpoint: ldk.OutPoint) =>
  `${MONITOR_PREFIX}${displayHex(outpoint.get_txid())}_${outpoint.get_index()}`;

export interface OutputCommitDeps {
  readonly store: BlobStore;
  readonly log: Log;
  /** Runs the node's next tick soon. */
  readonly schedule: () => void;
  /** Whether a tick is under way (a held effect then waits for its end). */
  readonly ticking: () => boolean;
  /** A write failed: the node must stop. */
  readonly onWriteFailed: () => void;
  /** LDK panicked inside a callback: the node must stop and say so. */
  readonly onPanic: (e: unknown) => void;
}

export class OutputCommit {
  private writes: Promise<void> = Promise.resolve();
  /** Channel monitors LDK changed, by key, waiting for the next write of the node's state. */
  private readonly pendingMonitors = new Map<string, Uint8Array>();
  /** What the node wants to say to the world, held until the state it comes from is durable. */
  private held: (() => void)[] = [];

  constructor(private readonly deps: OutputCommitDeps) {}

  /** Holds `effect` (a peer message, a broadcast, an event) until the next write of the node's state lands. */
  hold(effect: () => void): void {
    this.held.push(effect);
    if (!this.deps.ticking()) this.deps.schedule();
  }

  /**
   * LDK's persister: every monitor update is kept for the next write and answered `Completed`. `watch` looks
   * at each monitor (and the update that changed it) as it is kept: a breach seen, a tower told.
   */
  persister(
    watch?: (monitor: ldk.ChannelMonitor, update: ldk.ChannelMonitorUpdate | null) => void,
  ): ldk.Persist {
    const persist = (
      outpoint: ldk.OutPoint,
      monitor: ldk.ChannelMonitor,
      update: ldk.ChannelMonitorUpdate | null,
    ) => {
      const key = monitorKey(outpoint);
      try {
        watch?.(monitor, update);
      } catch (e) {
        this.deps.log("error", `monitor watch: ${String(e)}`);
        if (e instanceof WebAssembly.RuntimeError) this.deps.onPanic(e);
      }
      // Written by the next tick together with the manager (see `persistState`). Until then nothing this
      // update makes possible leaves the node, so LDK may go on as if it were stored.
      this.pendingMonitors.set(key, monitor.write());
      this.deps.schedule();
      return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_Completed;
    };
    return ldk.Persist.new_impl({
      persist_new_channel: (outpoint: ldk.OutPoint, monitor: ldk.ChannelMonitor) => {
        try {
          return persist(outpoint, monitor, null);
        } catch (e) {
          this.deps.log("error", `persist_new_channel: ${String(e)}`);
          if (e instanceof WebAssembly.RuntimeError) this.deps.onPanic(e);
          return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_UnrecoverableError;
        }
      },
      update_persisted_channel: (
        outpoint: ldk.OutPoint,
        update: ldk.ChannelMonitorUpdate | null,
        monitor: ldk.ChannelMonitor,
      ) => {
        try {
          return persist(outpoint, monitor, update);
        } catch (e) {
          this.deps.log("error", `update_persisted_channel: ${String(e)}`);
          if (e instanceof WebAssembly.RuntimeError) this.deps.onPanic(e);
          return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_UnrecoverableError;
        }
      },
      archive_persisted_channel: (outpoint: ldk.OutPoint) => {
        // A channel closed and fully resolved for weeks (LDK waits 4,032 blocks): its monitor moves to the
        // archive, out of memory and out of every start, so a node's memory does not grow with every
        // channel it ever had. Kept, never deleted: a hedge against the unexpected.
        try {
          this.archive(monitorKey(outpoint));
        } catch (e) {
          this.deps.log("error", `archive_persisted_channel: ${String(e)}`);
        }
      },
    } as ldk.PersistInterface);
  }

  /** The broadcaster LDK is given: each transaction goes to `chain` once the state it comes from is durable. */
  broadcaster(chain: EsploraChain): ldk.BroadcasterInterface {
    return ldk.BroadcasterInterface.new_impl({
      broadcast_transactions: (txs: Uint8Array[]) => {
        const copies = txs.map((t) => t.slice());
        this.hold(() => chain.broadcaster.broadcast_transactions(copies));
      },
    } as ldk.BroadcasterInterface);
  }

  /**
   * Writes in the order asked; `then` runs once the write (and every one before it) is durable. A failed
   * write stops the node.
   */
  enqueue(writes: readonly BlobWrite[], then?: () => void): Promise<void> {
    const run = this.writes.then(async () => {
      try {
        if (writes.length > 0) await this.deps.store.put(writes);
      } catch (e) {
        this.deps.log("error", `could not persist ${writes.map((w) => w.key).join(", ")}: ${String(e)}`);
        // Never tell LDK something is durable when it is not: stop instead.
        this.deps.onWriteFailed();
        throw e;
      }
      try {
        then?.();
      } catch (e) {
        this.deps.log("error", `after persist: ${String(e)}`);
      }
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes the manager and every changed monitor in one transaction, then releases what the node held
   * back until now (peer messages, broadcasts, events). Everything held was made before this state was
   * taken, so it is released only once the state it comes from is durable; with nothing to write, it
   * still waits for the writes before it.
   */
  persistState(manager: ldk.ChannelManager, always = false): Promise<void> {
    const needsManager = manager.get_and_clear_needs_persistence();
    const writes: BlobWrite[] = [];
    if (always || needsManager || this.pendingMonitors.size > 0) {
      writes.push({ key: MANAGER_KEY, value: manager.write() });
      for (const [key, bytes] of this.pendingMonitors) writes.push({ key, value: bytes });
      this.pendingMonitors.clear();
    }
    const held = this.held;
    this.held = [];
    if (writes.length === 0 && held.length === 0) return Promise.resolve();
    return this.enqueue(writes, () => {
      for (const effect of held) {
        try {
          effect();
        } catch (e) {
          this.deps.log("debug", `held effect: ${String(e)}`);
        }
      }
    });
  }

  /**
   * Moves a monitor to the archive in one write, after every write before it (idempotent: a monitor
   * already archived only has nothing left to move).
   */
  private archive(key: string): void {
    const pending = this.pendingMonitors.get(key);
    this.pendingMonitors.delete(key);
    const run = this.writes.then(async () => {
      const bytes = pending ?? (await this.deps.store.get(key));
      const writes: BlobWrite[] = [{ key, value: null }];
      if (bytes)
        writes.unshift({ key: `${ARCHIVE_PREFIX}${key.slice(MONITOR_PREFIX.length)}`, value: bytes });
      await this.deps.store.put(writes);
      this.deps.log("info", `archived ${key}`);
    });
    this.writes = run.catch((e) => this.deps.log("error", `archive ${key}: ${String(e)}`));
  }

  /** Resolves once every write asked so far has finished. */
  settled(): Promise<void> {
    return this.writes;
  }
}
