/**
 * The host's engines and their attachments: which engines start and when (the wallet exists and is
 * unlocked), what each starts from, and the attachments (`attachments.ts`) called as commands run and events
 * are committed. It names no engine: a new one is an entry in the worker's list and in `attachments.ts`.
 */
import { Effect, Result } from "effect";
import type { AnyEngine, EngineName, Platform } from "../../engine/engine";
import { prepareRootKey } from "../../engine/keys/mnemonic";
import type { StoredEvent } from "../../events/db";
import type { NewEvent } from "../../events/make";
import type { Attachment, CommandAnswer, HostSide } from "../attached";
import { attachments } from "./attachments";
import type { Command } from "../command";
import { type EngineEnv, EngineRunner } from "../engines";
import type { Services, WalletLifecycle } from "../lifecycle-port";
import type { Secrets } from "../wallet";

/** The host as its engines see it. */
export type EnginesHost = Omit<
  HostSide,
  "engines" | "startEngines" | "ensureEngine" | "canStart" | "mnemonic" | "fetch"
> & {
  readonly secrets: Secrets;
  readonly list: readonly AnyEngine[];
  /** The platform the engines run on; null for a host that runs none (tests of the log and the secrets). */
  readonly platform: Platform | null;
};

export class HostEngines {
  readonly runner: EngineRunner;
  private readonly attached: readonly Attachment[];
  /** What the attachments lend the lifecycle commands. */
  readonly services: Services;

  constructor(private readonly host: EnginesHost) {
    this.runner = new EngineRunner(host.list, (name, status) => {
      for (const a of this.attached) a.status?.(name, status);
    });
    const side: HostSide = {
      ...host,
      engines: this.runner,
      startEngines: () => this.start(),
      ensureEngine: (name) => this.ensure(name),
      canStart: () => this.canStart(),
      mnemonic: () => this.mnemonic(),
      fetch: host.platform?.fetch ?? null,
    };
    this.attached = attachments.map((attach) => attach(side));
    this.services = Object.assign({}, ...this.attached.map((a) => a.services ?? {}));
  }

  /** The wallet's words, once it exists and is unlocked; null before. */
  private async mnemonic(): Promise<string | null> {
    if (!this.host.states().wallet.exists || this.host.secrets.locked) return null;
    const words = await Effect.runPromise(Effect.result(this.host.secrets.keys.mnemonic()));
    return Result.isSuccess(words) ? words.success : null;
  }

  /** Whether engines may start: the wallet exists and is unlocked. */
  canStart(): boolean {
    return this.host.states().wallet.exists && !this.host.secrets.locked && !this.host.stopped();
  }

  /** The engines start once the wallet exists and is unlocked, each in the background. */
  async start(): Promise<void> {
    if (!this.host.states().wallet.exists || this.host.secrets.locked) return;
    const mnemonic = await this.mnemonic();
    if (mnemonic !== null) {
      await prepareRootKey(mnemonic);
      this.startNeeded(mnemonic);
    }
    for (const a of this.attached) a.started?.();
  }

  startNeeded(mnemonic: string): void {
    const env = this.env();
    if (env) this.runner.startNeeded(this.host.states(), mnemonic, env);
  }

  /** Starts an on-demand engine now (a command needs it); resolves once it runs or failed. */
  async ensure(name: EngineName): Promise<void> {
    const env = this.env();
    const mnemonic = await Effect.runPromise(Effect.result(this.host.secrets.keys.mnemonic()));
    if (!env || !Result.isSuccess(mnemonic)) return;
    await prepareRootKey(mnemonic.success);
    await this.runner.ensure(name, mnemonic.success, env);
  }

  /** Stops one engine and starts it anew from the seed. */
  /** What the wallet-lifecycle commands may ask of the engines (`lifecycle-port.ts`). */
  lifecyclePart(): Pick<
    WalletLifecycle,
    "stopEngines" | "startEngines" | "startNeeded" | "restartEngine" | "whenStarted" | "port" | "services"
  > {
    return {
      stopEngines: async (names) => {
        await Promise.all(names.map((n) => this.runner.stop(n)));
      },
      startEngines: () => this.start(),
      startNeeded: (mnemonic) => this.startNeeded(mnemonic),
      restartEngine: (name, mnemonic) => this.restart(name, mnemonic),
      whenStarted: (name) => this.runner.whenStarted(name),
      port: (name) => this.runner.port(name),
      services: this.services,
    };
  }

  async restart(name: EngineName, mnemonic: string): Promise<void> {
    const env = this.env();
    if (env) await this.runner.restart(name, this.host.states(), mnemonic, env);
  }

  /** Stops every engine in the list; they may start again (after the log was replaced). */
  async stopEach(): Promise<void> {
    await Promise.all(this.runner.names.map((n) => this.runner.stop(n)));
  }

  /** Runs a command in the queue through what the attachments show around it. */
  around(command: Command, run: () => Promise<CommandAnswer>): Promise<CommandAnswer> {
    const wrapped = this.attached.reduce<() => Promise<CommandAnswer>>(
      (inner, a) => (a.around ? () => a.around?.(command, inner) ?? inner() : inner),
      run,
    );
    return wrapped();
  }

  /** A command succeeded (a payment: once under way). */
  answered(command: Command, result: unknown): void {
    for (const a of this.attached) if (!this.host.stopped()) a.answered?.(command, result);
  }

  /** A command's events are in the log: the engines they (or a new wallet) made needed start. */
  async decided(events: readonly NewEvent[], created: boolean): Promise<void> {
    if (created || this.attached.some((a) => a.startsEngines?.(events))) await this.start();
    for (const a of this.attached) a.decided?.(events);
  }

  /** The device woke (back online, the page shown again). */
  wake(): void {
    for (const a of this.attached) if (!this.host.stopped()) a.wake?.();
  }

  /** Events were appended, by a command or an engine. */
  committed(fresh: readonly StoredEvent[]): void {
    for (const a of this.attached) a.committed?.(fresh);
  }

  /**
   * Another device's events were merged (the log brought back from the storage server): the engines they
   * made needed start, as after a command's (a mint joined there runs the ecash engine here).
   */
  merged(fresh: readonly StoredEvent[]): void {
    if (this.attached.some((a) => a.startsEngines?.(fresh))) void this.start().catch(() => undefined);
    this.committed(fresh);
  }

  /** The wallet stops: timers end, then every engine (none starts after this). */
  async stop(): Promise<void> {
    await Promise.all(this.attached.map((a) => a.stop?.()));
    await this.runner.stopAll();
  }

  /** What the engines start from; null for a host that runs none. */
  private env(): EngineEnv | null {
    const { config, platform, secrets } = this.host;
    if (!platform) return null;
    return {
      config,
      platform,
      store: secrets.store,
      hooks: (name) => (this.attached.find((a) => a.engine === name)?.hooks?.() ?? {}) as never,
    };
  }
}
