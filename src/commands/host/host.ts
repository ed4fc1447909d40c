import { Effect, Result } from "effect";
import { forgetSeedSecretKey } from "../../engine/nostr/keys";
import { forgetRootKey } from "../../engine/keys/mnemonic";
import { appendEvents } from "../../events/log";
import { type Stamp, stamp } from "../../events/make";
import type { StoredEvent } from "../../events/db";
import type { WalletEvent } from "../../events/types";
import { KV } from "../../events/storage-keys";
import { isWalletError, toWire, unexpected, type WalletError, WalletState } from "../../errors";
import { noEdits } from "../../projections/crdt";
import { settingsOf } from "../../projections/settings";
import { deriveViews, foldEvent, type States } from "../../projections";
import type { AllViews, LiveState } from "../../projections/live";
import type { CommandAnswer } from "../attached";
import type { Command, CommandTag } from "../command";
import type { Handler, HandlerContext, Outcome } from "../context";
import { CommandLock, type Hold, outsideOf } from "./command-lock";
import { CrdtGate } from "./crdt-gate";
import { enginesOf, needsSeed } from "./needs";
import { handlers, needs } from "./handlers";
import { HostEngines } from "./start-engines";
import { type HostDeps, liveAtStart, openLog, refold } from "./open";
import { SnapshotKeeper } from "./snapshot";
import { isStartedPayment } from "../lightning";
import type { WalletLifecycle, Written } from "../lifecycle-port";
import { lockedError, Secrets } from "../wallet";

export type { CommandAnswer, HostDeps };

const stoppedError = () =>
  new WalletState({ message: "The wallet is stopped.", key: "errors.wallet_stopped" });

/**
 * The wallet inside the worker: the bus's end, the command queue and the commit. Commands run one at a
 * time, so every handler decides on the state the previous command left; a handler's events are durable in
 * IndexedDB before its answer is sent. Secrets live in `Secrets`; the engines and each engine's hooks in
 * `HostEngines` (`attachments.ts`); the commands that unlock, replace or delete the wallet are handlers
 * (`lifecycle.ts`) given the lifecycle port below.
 */
export class WalletHost {
  private states: States;
  private readonly lock = new CommandLock();
  private stopped = false;
  private readonly engines: HostEngines;
  private readonly crdt: CrdtGate;
  /** Keeps the folded log in the database for the next start; none in emergency mode. */
  private readonly snapshots: SnapshotKeeper | null;
  live: LiveState;

  private constructor(
    private readonly deps: HostDeps,
    private readonly stampWith: Stamp,
    states: States,
    /** The seed and the engines' sealed blobs. */
    readonly secrets: Secrets,
    last: string | null,
  ) {
    this.states = states;
    this.crdt = new CrdtGate(deps.crdtReady, deps.emergency === true);
    this.snapshots = deps.emergency
      ? null
      : new SnapshotKeeper(
          deps.db,
          () => this.states,
          (f) => this.lock.with(f),
          last,
        );
    this.live = liveAtStart(secrets);
    this.engines = new HostEngines({
      config: deps.config,
      emergency: deps.emergency === true,
      now: () => this.stampWith.now(),
      states: () => this.states,
      live: () => this.live,
      setLive: (patch) => this.setLive(patch),
      enqueue: (f) => this.lock.with(f),
      commit: (events) => this.commit({ events }),
      db: deps.db,
      blobs: secrets.store,
      merge: (events) => this.lock.with(() => this.merge(events)),
      run: (command) => this.run(command),
      stopped: () => this.stopped,
      secrets,
      list: deps.engines?.list ?? [],
      platform: deps.engines?.platform ?? null,
    });
  }

  static async open(deps: HostDeps): Promise<WalletHost> {
    const { stamp, states, last, fromSnapshot } = await openLog(deps);
    const host = new WalletHost(deps, stamp, states, await Secrets.open(deps.db, deps.kdf), last);
    // A start that folded the whole log keeps the fold, so the next one need not.
    if (!fromSnapshot) host.snapshots?.schedule();
    await host.engines.start();
    return host;
  }

  get exists(): boolean {
    return this.states.wallet.exists;
  }

  /** A password is set and the owner has not entered it yet: nothing secret can be read. */
  get locked(): boolean {
    return this.secrets.locked;
  }

  /** Safe mode: the wallet runs without lightning (the owner turned it on in the emergency kit). */
  get safeMode(): boolean {
    return this.states.wallet.safe_mode;
  }

  /** The fiat currency the owner chose. */
  get fiat(): string {
    return settingsOf(this.states.crdt ?? noEdits).fiat;
  }

  views(): AllViews {
    return { ...deriveViews(this.states, this.stampWith.now()), live: this.live };
  }

  /** Runs a command after those before it; never rejects. */
  run(command: Command): Promise<CommandAnswer> {
    const waiting = this.crdt.before(command._tag);
    if (waiting) return waiting.then((answer) => answer ?? this.run(command));
    // A command for an engine that is still starting (just after opening the wallet) waits for it rather
    // than failing; one that does not need it never waits.
    const engines = enginesOf(needs[command._tag]);
    const { runner } = this.engines;
    const starting = engines.find((e) => runner.isStarting(e));
    if (starting) return runner.whenStarted(starting).then(() => this.run(command));
    // An engine that starts on demand (nostr) is started by the first command that needs it.
    const onDemand = engines.find((e) => runner.onDemand(e) && !runner.port(e));
    if (onDemand && this.engines.canStart())
      return this.engines.ensure(onDemand).then(() => this.runQueued(command));
    return this.runQueued(command);
  }

  /** Runs a command in the queue (its engine started or not needed); never rejects. */
  private runQueued(command: Command): Promise<CommandAnswer> {
    const next = (async (): Promise<CommandAnswer> => {
      const hold: Hold = { release: await this.lock.acquire() };
      try {
        return await this.engines.around(command, () => this.execute(command, hold));
      } finally {
        hold.release();
      }
    })();
    // A payment on its way is awaited here, outside the queue.
    return next.then(async (answer) => {
      if (answer.ok && !isStartedPayment(answer.value)) this.engines.answered(command, answer.value);
      if (!answer.ok || !isStartedPayment(answer.value)) return answer;
      try {
        return { ok: true, value: await answer.value.settle() };
      } catch (e) {
        return { ok: false, error: toWire(isWalletError(e) ? e : unexpected(e)) };
      }
    });
  }

  setLive(patch: Partial<LiveState>): void {
    this.live = { ...this.live, ...patch };
    this.deps.onViews({ live: this.live });
  }

  /** The device woke (the browser is back online, the page is shown again): engines look at their connections. */
  wake(): void {
    this.engines.wake();
  }

  /** Resolves once the lightning node is running, has failed, or will not start (safe mode). */
  whenLightning(): Promise<void> {
    return this.engines.runner.whenStarted("lightning");
  }

  /** Stops the engines; resolves once the node wrote its state and every event it reported is in the log. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.engines.stop();
    await this.lock.idle();
    await this.snapshots?.stop();
  }

  /** What a handler sees; `states` is read anew on each access, so it is current after `outside`. */
  private context(hold: Hold): HandlerContext {
    const host = this;
    const { config, engines } = this.deps;
    return {
      get states() {
        return host.states;
      },
      network: config.network,
      config,
      stamp: this.stampWith,
      keys: this.secrets.keys,
      ...this.engines.runner.running(),
      fetch: engines?.platform.fetch ?? null,
      loadFedimint: engines?.platform.loadFedimint ?? null,
      outside: outsideOf(this.lock, hold),
      lifecycle: this.lifecycle(hold),
    };
  }

  /** What the wallet-lifecycle commands may ask of the host (`lifecycle-port.ts`). */
  private lifecycle(hold: Hold): WalletLifecycle {
    const host = this;
    return {
      secrets: this.secrets,
      db: this.deps.db,
      cipher: this.deps.cipher,
      get crdtMissing() {
        return host.crdt.missing;
      },
      setLive: (patch) => this.setLive(patch),
      live: () => this.live,
      reload: (written) => this.reload(written),
      unlocked: () => this.unlocked(),
      handle: (command) => this.handle(command, hold),
      ...this.engines.lifecyclePart(),
    };
  }

  private async execute(command: Command, hold: Hold): Promise<CommandAnswer> {
    if (this.stopped) return { ok: false, error: toWire(stoppedError()) };
    try {
      const decide =
        needsSeed(needs[command._tag]) && this.locked
          ? Effect.fail(lockedError())
          : this.handle(command, hold);
      const result = await Effect.runPromise(Effect.result(decide));
      return Result.isSuccess(result)
        ? { ok: true, value: result.success }
        : { ok: false, error: toWire(result.failure) };
    } catch (e) {
      return { ok: false, error: toWire(unexpected(e)) };
    }
  }

  /** Runs a command's handler and commits what it decided; engines its events made needed start. */
  private handle(command: Command, hold: Hold): Effect.Effect<unknown, WalletError> {
    const handler = (handlers as Record<string, Handler<CommandTag> | undefined>)[command._tag];
    if (!handler) return Effect.fail(unexpected(new Error(`No handler for ${command._tag}`)));
    const self = this;
    return Effect.gen(function* () {
      const decided = yield* handler(command as never, self.context(hold));
      const hadWallet = self.states.wallet.exists;
      yield* Effect.tryPromise({ try: () => self.commit(decided), catch: unexpected });
      const created = !hadWallet && self.states.wallet.exists;
      yield* Effect.promise(() => self.engines.decided(decided.events, created));
      return decided.result;
    });
  }

  /** Appends a decision's events and blobs, folds what was new, and pushes the views. */
  private async commit(decided: Pick<Outcome<unknown>, "events" | "kv">): Promise<void> {
    const events = stamp(decided.events, this.stampWith);
    const kv = await this.secrets.sealWrites(decided.kv ?? []);
    const fresh = await appendEvents(this.deps.db, events, kv);
    if (kv.some((w) => w.key === KV.seed)) this.secrets.forgetSeed();
    if (this.folded(fresh)) this.engines.committed(fresh);
  }

  /** Appends another device's events as they are (ids, times, devices), folds the new ones. */
  private async merge(events: readonly WalletEvent[]): Promise<readonly StoredEvent[]> {
    // Refused rather than dropped: the sync that brought them must not count them as brought in.
    if (this.stopped) throw stoppedError();
    const fresh = await appendEvents(this.deps.db, events);
    if (this.folded(fresh)) this.engines.merged(fresh);
    return fresh;
  }

  /** Folds events just appended, keeps the fold and pushes the views; false when none was new. */
  private folded(fresh: readonly StoredEvent[]): boolean {
    for (const e of fresh) this.states = foldEvent(this.states, e);
    if (fresh.length === 0) return false;
    this.snapshots?.changed(fresh);
    this.deps.onViews(this.views());
    return true;
  }

  /** After an import or a delete, the log on disk is the truth again. */
  private async reload(written?: Written): Promise<void> {
    const wasLocked = this.locked;
    forgetRootKey();
    forgetSeedSecretKey();
    await this.engines.stopEach();
    await this.secrets.reload();
    const next = await refold(this.deps.db, this.states, written);
    this.states = next.states;
    this.snapshots?.changed(next.events, next.replaced);
    this.live = { ...this.live, needs_password: this.locked, has_password: this.secrets.hasPassword };
    this.deps.onViews(this.views());
    if (wasLocked && !this.locked) await this.unlocked();
  }

  /** Outside the secrets queue, since the engines read their blobs as they start. */
  private async unlocked(): Promise<void> {
    await this.engines.start();
    this.deps.onUnlocked?.();
  }
}
