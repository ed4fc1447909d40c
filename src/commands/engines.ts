/**
 * The engines' lifecycle: the host keeps a list of engines and this starts the ones the wallet needs, each in
 * the background (home works while an engine loads), stops them, and answers which port is running. It knows
 * no engine by name: a new engine is one more entry in the list the worker gives the host.
 */
import type {
  AnyEngine,
  Engine,
  EngineHooks,
  EngineName,
  EnginePorts,
  EngineStart,
  Platform,
} from "../engine/engine";
import type { States } from "../projections";
import type { WalletConfig } from "../config";
import type { BlobStore } from "../engine/lightning/store";

/** Where an engine is: not running, loading, running, failed to start, or not needed by this wallet. */
export type EngineStatus =
  | { readonly state: "off" }
  | { readonly state: "starting" }
  | { readonly state: "ready" }
  | { readonly state: "failed"; readonly error: string }
  | { readonly state: "not_needed" };

/** What every engine starts from; the hooks are asked for by engine name when one starts. */
export interface EngineEnv {
  readonly config: WalletConfig;
  readonly platform: Platform;
  readonly store: BlobStore;
  readonly hooks: <N extends EngineName>(name: N) => EngineHooks[N];
}

/** Every engine's port as handlers see it: null until it runs (a new engine adds its name here). */
export type RunningPorts = { readonly [N in EngineName]: EnginePorts[N] | null };

const NO_PORTS: RunningPorts = { onchain: null, lightning: null, ecash: null, nostr: null, nwc: null };

export class EngineRunner {
  private readonly ports = new Map<EngineName, unknown>();
  private readonly starting = new Map<EngineName, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly engines: readonly AnyEngine[],
    private readonly onStatus: (name: EngineName, status: EngineStatus) => void,
  ) {}

  /** The running engine's port, or null. */
  port<N extends EngineName>(name: N): EnginePorts[N] | null {
    return (this.ports.get(name) as EnginePorts[N] | undefined) ?? null;
  }

  /** Every engine's running port (null for one not running or not in the list). */
  running(): RunningPorts {
    return { ...NO_PORTS, ...Object.fromEntries(this.ports) };
  }

  /** The names of the engines in the list, in start order. */
  get names(): readonly EngineName[] {
    return this.engines.map((e) => e.name);
  }

  isStarting(name: EngineName): boolean {
    return this.starting.has(name);
  }

  /** Resolves once the engine is running, has failed, or is not starting. */
  whenStarted(name: EngineName): Promise<void> {
    return this.starting.get(name) ?? Promise.resolve();
  }

  /** Starts, in the background, every engine this wallet needs that is neither running nor starting. */
  startNeeded(states: States, mnemonic: string, env: EngineEnv): void {
    if (this.stopped) return;
    for (const engine of this.engines) {
      if (this.ports.has(engine.name) || this.starting.has(engine.name)) continue;
      if (!engine.needed(states)) {
        this.onStatus(engine.name, { state: "not_needed" });
        continue;
      }
      this.launch(engine, mnemonic, env);
    }
  }

  /**
   * Starts an engine that starts on demand (`onDemand`) when it is neither running nor starting, whatever
   * `needed` says: a command needs it now. Resolves once it runs or failed.
   */
  ensure(name: EngineName, mnemonic: string, env: EngineEnv): Promise<void> {
    const engine = this.engines.find((e) => e.name === name);
    if (!this.stopped && engine?.onDemand && !this.ports.has(name) && !this.starting.has(name))
      this.launch(engine, mnemonic, env);
    return this.whenStarted(name);
  }

  /** Whether the engine `name` starts on demand. */
  onDemand(name: EngineName): boolean {
    return this.engines.find((e) => e.name === name)?.onDemand === true;
  }

  /** Stops one engine and starts it anew (a fresh on-chain scan, a node restarted by the owner). */
  async restart(name: EngineName, states: States, mnemonic: string, env: EngineEnv): Promise<void> {
    await this.stop(name);
    const engine = this.engines.find((e) => e.name === name);
    if (engine?.needed(states)) this.launch(engine, mnemonic, env);
    await this.whenStarted(name);
  }

  /** Stops one engine once it finished starting; it writes what it must first. */
  async stop(name: EngineName): Promise<void> {
    await this.starting.get(name);
    const port = this.ports.get(name);
    this.ports.delete(name);
    const engine = this.engines.find((e) => e.name === name);
    if (port !== undefined && engine) await (engine as unknown as Engine<EngineName>).stop(port as never);
    this.onStatus(name, { state: "off" });
  }

  /**
   * A running engine failed on its own (LDK panicked): it is dropped without a stop (its code cannot be
   * trusted to run again in this worker) and shown as failed with `error`.
   */
  failed(name: EngineName, error: string): void {
    this.ports.delete(name);
    this.onStatus(name, { state: "failed", error });
  }

  /** Stops every engine; none starts after this. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.engines.map((e) => this.stop(e.name)));
  }

  private launch(any: AnyEngine, mnemonic: string, env: EngineEnv): void {
    // Each engine's start takes its own hooks and answers its own port: one of them, whichever it is.
    const engine = any as unknown as Engine<EngineName>;
    this.onStatus(engine.name, { state: "starting" });
    const start: EngineStart<EngineName> = {
      config: env.config,
      mnemonic,
      store: env.store,
      platform: env.platform,
      hooks: env.hooks(engine.name),
    };
    const run = (async () => {
      try {
        const port = await engine.start(start);
        if (this.stopped) {
          await engine.stop(port);
          return;
        }
        this.ports.set(engine.name, port);
        this.onStatus(engine.name, { state: "ready" });
      } catch (e) {
        this.onStatus(engine.name, { state: "failed", error: e instanceof Error ? e.message : String(e) });
      } finally {
        this.starting.delete(engine.name);
      }
    })();
    this.starting.set(engine.name, run);
  }
}
