/**
 * The node's connections kept alive: the supervisor (`supervisor.ts`) dialling the peers the node needs,
 * and LDK's peer timer, which pings them.
 */
import type { NodeCore } from "./node-core";
import type { Peers } from "./peers";
import { type PeerStatus, Supervisor } from "./supervisor";

/**
 * LDK's peer timer: each `timer_tick_occurred` pings every peer and drops one that has sent nothing since
 * the tick before while a pong was awaited. A tick that comes late (the worker was busy, or the tab was
 * frozen or throttled) is skipped: the peer's answer may be waiting in the queue behind it, and counting
 * it as missed would drop a healthy peer. So a peer is dropped only after a full interval of real silence.
 */
export const PEER_TICK_MS = 10_000;
/** A peer tick this much later than due is skipped (see `PEER_TICK_MS`). */
export const PEER_TICK_LATE_MS = 3_000;

export class Connections {
  private readonly supervisor: Supervisor;
  private lastPeerTick = Date.now();

  constructor(
    private readonly core: NodeCore,
    peers: Peers,
  ) {
    this.supervisor = new Supervisor({
      wanted: () => {
        try {
          return core.broken === null && !core.stopped ? peers.wanted() : new Map();
        } catch (e) {
          core.log("error", `wanted peers: ${String(e)}`);
          return new Map();
        }
      },
      isConnected: (pubkey) => core.broken === null && peers.isConnected(pubkey),
      lastSeen: (pubkey) => peers.lastSeen(pubkey),
      noteSeen: (pubkey, at) => peers.noteSeen(pubkey, at),
      dial: (peer) => core.call(() => peers.dial(peer)),
      now: () => Date.now(),
      log: core.opts.log,
      changed: () => core.opts.onPeers?.(),
    });
    peers.dropped = () => this.supervisor.wake();
  }

  /** Dials the peers the node needs now, and keeps them connected (and pinged) from then on. */
  start(): void {
    this.lastPeerTick = Date.now();
    this.core.timers.push(setInterval(() => this.peerTick(), PEER_TICK_MS));
    this.supervisor.start();
  }

  stop(): void {
    this.supervisor.stop();
  }

  /** LDK's peer timer, skipped when it comes late (see `PEER_TICK_MS`). */
  peerTick(): void {
    const now = Date.now();
    const late = now - this.lastPeerTick - PEER_TICK_MS;
    this.lastPeerTick = now;
    if (late > PEER_TICK_LATE_MS) {
      this.core.log("info", `peer tick ${late} ms late: skipped`);
      this.core.schedule();
      return;
    }
    this.core.guard("peer tick", () => this.core.peerManager.timer_tick_occurred());
  }

  /** The device woke: the next ping waits a full interval from now, and every dropped peer is dialled now. */
  wake(): void {
    if (this.core.stopped) return;
    this.lastPeerTick = Date.now();
    this.core.schedule();
    this.supervisor.wake();
  }

  /** Dials every peer not connected now, without waiting out its back-off (nothing else changes). */
  redial = (): void => {
    if (!this.core.stopped) this.supervisor.wake();
  };

  /** Since when a peer the node keeps has not been connected (unix ms), or null when it is (or not kept). */
  offlineSince(pubkey: string): number | null {
    const s = this.supervisor.of(pubkey);
    return s && s.state !== "connected" ? s.since : null;
  }

  status(): PeerStatus[] {
    return this.core.broken === null ? this.supervisor.status() : [];
  }
}
