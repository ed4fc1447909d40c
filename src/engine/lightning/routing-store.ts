/**
 * What the node keeps of its routing in its store: the network graph and the scorer.
 *
 * A wallet's are read after its node is up rather than before: a mainnet-sized graph takes a while to read
 * (half a second on two quiet cores, seconds on a busy phone), and the owner's channel comes first. The node
 * starts on an empty graph (`Routing.empty`, node-build.ts); the stored one is read once every channel
 * whose partner is connected is usable, or a while after the start when a partner is away, or at once when
 * a payment or a gossip sync asks for routes. What the scorer learns from a payment's paths is written a
 * moment after, once for all its parts, and never over a stored scorer not read yet.
 */
import { readRouting } from "./node-build";
import type { NodeCore } from "./node-core";

/** How long after its start a node waits for its channels before it reads its graph anyway. */
const READ_WAIT_MS = 5_000;
/** How often the node looks whether its channels are back, before it reads its graph. */
const LOOK_MS = 100;
/** A payment's parts settle within moments of each other: one scorer write for them all. */
const SCORER_SAVE_MS = 2_000;

export class RoutingStore {
  private reading: Promise<void> | null = null;
  private readNow: () => void = () => {};
  /** Resolves once the stored graph is read, by whatever asked for it first (it never asks for it itself). */
  readonly read: Promise<void> = new Promise((r) => {
    this.readNow = r;
  });

  constructor(private readonly core: NodeCore) {}

  /** Resolves once the node routes over its stored graph and scorer, read now if they were not yet. */
  ready(): Promise<void> {
    const core = this.core;
    if (core.routing.read) return Promise.resolve();
    this.reading ??= readRouting(core).then(
      (routing) => {
        if (!core.stopped) core.routing = routing;
        this.readNow();
      },
      (e: unknown) => {
        core.log("warn", `stored network graph: ${String(e)}`);
        this.readNow();
      },
    );
    return this.reading;
  }

  /** Reads the stored graph once the channels are back (usable, or their partners away), off their way. */
  readOnceChannelsAreBack(): void {
    const core = this.core;
    if (core.routing.read) this.readNow();
    const until = Date.now() + (core.opts.graphReadWaitMs ?? READ_WAIT_MS);
    const look = () => {
      if (core.stopped || core.broken !== null || this.reading || core.routing.read) return;
      const back = core
        .call(() => core.manager.list_channels())
        .every((c) => !c.get_is_channel_ready() || c.get_is_usable());
      if (back || Date.now() >= until) void this.ready();
      else setTimeout(look, LOOK_MS);
    };
    look();
  }

  /** Stores the graph and what the scorer learnt. */
  async save(): Promise<void> {
    if (this.core.broken !== null) return;
    await this.core.opts.store.put(this.core.call(() => this.core.routing.blobs()));
  }

  private scorerSave: ReturnType<typeof setTimeout> | null = null;

  /** Stores the scorer a moment after a payment's paths taught it something (one write for all its parts). */
  saveScorerSoon(): void {
    if (this.scorerSave || !this.core.routing.read) return;
    this.scorerSave = setTimeout(() => {
      this.scorerSave = null;
      if (this.core.broken !== null || this.core.stopped) return;
      void this.core.opts.store
        .put([this.core.call(() => this.core.routing.scorerBlob())])
        .catch((e: unknown) => this.core.log("warn", `scorer: ${String(e)}`));
    }, SCORER_SAVE_MS);
  }

  /** As the node stops: the scorer's write that was coming, taken now (null when none was). */
  takeScorerSave(): { key: string; value: Uint8Array } | null {
    if (!this.scorerSave) return null;
    clearTimeout(this.scorerSave);
    this.scorerSave = null;
    return this.core.call(() => this.core.routing.scorerBlob());
  }
}
