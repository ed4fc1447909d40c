/**
 * What every part of the lightning node shares: the options it was started with, LDK's key manager and
 * logger, the output commit, the LDK objects once built, and the background loop (`schedule` runs a tick:
 * peer messages, LDK's events, then one write of the node's state). Parts hold a `NodeCore`, never each
 * other's private state.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { ldkLogger } from "./logger";
import type { NodeEvent, NodeOptions } from "./node-types";
import { OutputCommit } from "./output-commit";
import { NodeError } from "./policy";
import type { Routing } from "./routing";

export class NodeCore {
  readonly keys: ldk.KeysManager;
  readonly logger: ldk.Logger;
  readonly commit: OutputCommit;
  readonly nodeId: string;
  /** Set by the build, before anything else runs. */
  manager!: ldk.ChannelManager;
  chainMonitor!: ldk.ChainMonitor;
  peerManager!: ldk.PeerManager;
  /** The network graph and scorer the router uses. */
  routing!: Routing;
  /** LDK's event handler (the node's events module), set before the first tick. */
  handler!: ldk.EventHandler;
  /** The channels as the wallet sees them, serialised, to tell when they changed. */
  channelsNow: () => string = () => "";
  stopped = false;
  /** Why LDK failed, once it has (a panic inside its wasm); the node then takes nothing more. */
  broken: string | null = null;
  private ticking = false;
  private tickAgain = false;
  private lastChannels = "";
  timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    readonly opts: NodeOptions,
    /** Stops the node (a write failed). */
    onWriteFailed: () => void,
  ) {
    const now = this.now();
    this.keys = ldk.KeysManager.constructor_new(
      opts.seed,
      BigInt(Math.floor(now / 1000)),
      (now % 1000) * 1_000_000 + Math.floor(Math.random() * 1000),
    );
    this.logger = ldkLogger(opts.log);
    this.commit = new OutputCommit({
      store: opts.store,
      log: opts.log,
      schedule: () => this.schedule(),
      ticking: () => this.ticking,
      onWriteFailed,
      onPanic: (e) => this.fatal(e),
    });
    const id = this.keys.as_NodeSigner().get_node_id(ldk.Recipient.LDKRecipient_Node);
    if (!(id instanceof ldk.Result_PublicKeyNoneZ_OK))
      throw new NodeError("The node key could not be derived");
    this.nodeId = hex.encode(id.res);
  }

  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  log(level: "debug" | "info" | "warn" | "error", message: string): void {
    this.opts.log(level, message);
  }

  /** Runs `f`, logging what it throws; nothing once the node stopped. A panic inside LDK stops the node. */
  guard(what: string, f: () => void): void {
    if (this.stopped) return;
    try {
      f();
    } catch (e) {
      this.opts.log("error", `${what}: ${String(e)}`);
      if (isPanic(e)) this.fatal(e);
    }
  }

  /**
   * LDK panicked: its wasm instance is poisoned (every later call fails the same way). The node stops at
   * once, takes nothing more, and tells the wallet, which says so and offers a restart.
   */
  fatal(e: unknown): void {
    if (this.broken !== null) return;
    this.broken = `The lightning engine stopped after an internal error (${String(e)}). Restart the wallet to run it again.`;
    this.stopTimers();
    try {
      this.opts.onFatal?.(this.broken);
    } catch (err) {
      this.opts.log("error", `fatal listener: ${String(err)}`);
    }
  }

  /** Throws the node's failure when LDK has failed; else runs `f`, turning a panic into that failure. */
  call<T>(f: () => T): T {
    if (this.broken !== null) throw new NodeError(this.broken);
    try {
      return f();
    } catch (e) {
      if (!isPanic(e)) throw e;
      this.fatal(e);
      throw new NodeError(this.broken ?? String(e));
    }
  }

  /** Runs the background work soon: peer messages, events, and persisting the manager. */
  schedule(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    setTimeout(() => {
      try {
        do {
          this.tickAgain = false;
          this.tick();
        } while (this.tickAgain && !this.stopped);
      } finally {
        this.ticking = false;
      }
    }, 0);
  }

  private tick(): void {
    this.guard("peer events", () => this.peerManager.process_events());
    this.guard("manager events", () => this.manager.as_EventsProvider().process_pending_events(this.handler));
    this.guard("monitor events", () =>
      this.chainMonitor.as_EventsProvider().process_pending_events(this.handler),
    );
    this.guard("peer events", () => this.peerManager.process_events());
    this.guard("channels", () => {
      const now = this.channelsNow();
      if (now !== this.lastChannels) {
        this.lastChannels = now;
        this.emit({ type: "changed" });
      }
    });
    // Last, so that it covers everything this tick made.
    this.guard("persist", () => void this.persistState().catch(() => undefined));
  }

  /** One write of the manager with every changed monitor; see `OutputCommit.persistState`. */
  persistState(always = false): Promise<void> {
    return this.commit.persistState(this.manager, always);
  }

  /** Tells the wallet of `event` once the state it comes from is durable. */
  emit(event: NodeEvent): void {
    this.commit.hold(() => {
      try {
        this.opts.onEvent(event);
      } catch (e) {
        this.opts.log("error", `event listener: ${String(e)}`);
      }
    });
  }

  /** Stops the loop's timers; the node says nothing more. */
  stopTimers(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }
}

/** A trap inside LDK's wasm (a Rust panic: "unreachable"), as opposed to an error LDK answered. */
export const isPanic = (e: unknown): boolean =>
  typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError;

export const random32 = () => crypto.getRandomValues(new Uint8Array(32));
export const someU64 = (o: ldk.Option_u64Z): bigint | null =>
  o instanceof ldk.Option_u64Z_Some ? o.some : null;

export const apiErrorText = (e: ldk.APIError): string => {
  if ("err" in e && typeof (e as { err: unknown }).err === "string") return (e as { err: string }).err;
  return e.constructor.name.replace(/^APIError_/, "");
};
