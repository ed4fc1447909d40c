import { Effect, Result } from "effect";
import type { AnyEngine, EngineHooks, EngineName, Platform } from "../engine/engine";
import { forgetSeedSecretKey } from "../engine/nostr/keys";
import type { KdfParams } from "../engine/vault";
import { forgetRootKey, normaliseWords } from "../engine/keys/mnemonic";
import type { StoredEvent, WalletDb } from "../events/db";
import { appendEvents, readEvents, readKv } from "../events/log";
import { type NewEvent, newEvent, type Stamp, stamp } from "../events/make";
import { KV } from "../events/storage-keys";
import {
  InvalidInput,
  isWalletError,
  toWire,
  unexpected,
  type WalletError,
  WalletState,
  type WireError,
} from "../errors";
import { crdtProjection, noEdits } from "../projections/crdt";
import { pendingEvents, targetRelays } from "../projections/nostr";
import { settingsOf } from "../projections/settings";
import { deriveViews, foldEvent, foldEvents, type States } from "../projections";
import { lockedError } from "./at-rest";
import type { Command, CommandTag } from "./command";
import type { Handler, HandlerContext, Need, Outcome } from "./context";
import { CommandLock, type Hold } from "./command-lock";
import { type EngineEnv, EngineRunner, type EngineStatus } from "./engines";
import { handlers, needs } from "./handlers";
import { nostrFollowUps } from "./nostr";
import { MESSAGES_WATCH } from "./chat";
import type { NostrEvent } from "../engine/nostr/event";
import { isStartedPayment } from "./lightning";
import { lightningHooks, lightningLive, usableChannels } from "./lightning-hooks";
import type { AllViews, LiveState } from "../projections/live";
import type { WalletConfig } from "../config";
import { Secrets } from "./secrets";
import { deleteEverything, exportState, importStateEvents, type StateCipher } from "./state-file";
import { checkRestoreWords } from "./wallet";
import { NwcDesk } from "./nwc-desk";

/** How often the joined mints' info is read again while the wallet is open. */
export const ECASH_INFO_REFRESH_MS = 60 * 60 * 1000;

export type CommandAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

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

/** How often a running wallet looks for tokens paid to its lightning address. */
const ADDRESS_CHECK_MS = 60_000;

/** The only command that never touches the owner-edited document: a new wallet has no edits yet. */
const WITHOUT_CRDT: ReadonlySet<CommandTag> = new Set(["CreateWallet"]);

export type { EngineBlobWrite } from "./secrets";

/**
 * The wallet inside the worker: the bus's end, the command queue and the commit. Commands run one at a
 * time, so every handler decides on the state the previous command left; a handler's events are durable in
 * IndexedDB before its answer is sent. Secrets live in `Secrets`, the engines' lifecycle in `EngineRunner`.
 */
export class WalletHost {
  private states: States;
  private readonly lock = new CommandLock();
  private stopped = false;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  /** Reads the joined mints' info again while the ecash engine runs (see ECASH_INFO_REFRESH_MS). */
  private ecashInfoTimer: ReturnType<typeof setInterval> | null = null;
  private readonly engines: EngineRunner;
  /** Wallet-connect: what the service's requests are answered with. */
  private readonly nwc: NwcDesk;
  private crdtLoaded = false;
  /** Emergency mode without Automerge: a saved file carries the log (every change) but no document. */
  private crdtMissing = false;
  /** The tokens paid to the lightning address are looked for in this run (at start, then now and then). */
  private addressChecked = false;
  private addressTimer: ReturnType<typeof setTimeout> | null = null;
  live: LiveState;

  private constructor(
    private readonly deps: HostDeps,
    private readonly stampWith: Stamp,
    states: States,
    /** The seed and the engines' sealed blobs. */
    readonly secrets: Secrets,
  ) {
    this.states = states;
    this.engines = new EngineRunner(deps.engines?.list ?? [], (name, status) =>
      this.engineStatus(name, status),
    );
    this.nwc = new NwcDesk({
      enqueue: (f) => this.enqueue(f),
      commit: (events) => this.commit({ events }),
      states: () => this.states,
      run: (command) => this.run(command),
      nwc: () => this.engines.port("nwc"),
      lightning: () => this.engines.port("lightning"),
      whenLightning: () => this.whenLightning(),
      whenChannelsBack: () => this.whenChannelsBack(),
      now: () => this.stampWith.now(),
      network: deps.config.network,
    });
    this.live = {
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
    };
  }

  static async open(deps: HostDeps): Promise<WalletHost> {
    const uuid = deps.uuid ?? (() => crypto.randomUUID());
    let device = await readKv<string>(deps.db, KV.device);
    if (!device) {
      device = uuid().replaceAll("-", "");
      await deps.db.kv.put({ key: KV.device, value: device });
    }
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
    const secrets = await Secrets.open(deps.db, deps.kdf);
    const host = new WalletHost(deps, { uuid, now: deps.now ?? (() => Date.now()), device }, states, secrets);
    await host.startEngines();
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
    const { crdtReady } = this.deps;
    if (crdtReady && !this.crdtLoaded && !WITHOUT_CRDT.has(command._tag))
      return crdtReady.then(
        () => {
          this.crdtLoaded = true;
          return this.run(command);
        },
        (e): CommandAnswer | Promise<CommandAnswer> => {
          if (!this.deps.emergency) return { ok: false, error: toWire(unexpected(e)) };
          // In emergency mode the kit works without Automerge: only edits of the document fail.
          this.crdtLoaded = true;
          this.crdtMissing = true;
          return this.run(command);
        },
      );
    // A command for an engine that is still starting (just after opening the wallet) waits for it rather
    // than failing; one that does not need it never waits.
    const need = needs[command._tag];
    const engines = need === undefined || need === "seed" ? [] : typeof need === "string" ? [need] : need;
    const starting = engines.find((e) => this.engines.isStarting(e));
    if (starting) return this.engines.whenStarted(starting).then(() => this.run(command));
    // An engine that starts on demand (nostr) is started by the first command that needs it.
    const onDemand = engines.find((e) => this.engines.onDemand(e) && !this.engines.port(e));
    if (onDemand && this.canStart()) return this.ensureEngine(onDemand).then(() => this.runQueued(command));
    return this.runQueued(command);
  }

  /** Runs a command in the queue (its engine started or not needed); never rejects. */
  private runQueued(command: Command): Promise<CommandAnswer> {
    const next = (async (): Promise<CommandAnswer> => {
      const hold: Hold = { release: await this.lock.acquire() };
      try {
        return command._tag === "SyncOnchain" ? await this.sync(hold) : await this.execute(command, hold);
      } finally {
        hold.release();
      }
    })();
    // A payment on its way is awaited here, outside the queue.
    return next.then(async (answer) => {
      if (answer.ok && !isStartedPayment(answer.value)) this.followUp(command, answer.value);
      if (!answer.ok || !isStartedPayment(answer.value)) return answer;
      try {
        return { ok: true, value: await answer.value.settle() };
      } catch (e) {
        return { ok: false, error: toWire(isWalletError(e) ? e : unexpected(e)) };
      }
    });
  }

  /** Runs, one after another behind the queue, the commands that follow a successful one (nostrFollowUps). */
  private followUp(command: Command, result: unknown): void {
    const next = nostrFollowUps(command, result, this.states);
    if (next.length === 0 || this.stopped) return;
    void (async () => {
      for (const c of next) await this.run(c);
    })();
  }

  setLive(patch: Partial<LiveState>): void {
    this.live = { ...this.live, ...patch };
    this.deps.onViews({ live: this.live });
  }

  /** Resolves once the lightning node is running, has failed, or will not start (safe mode). */
  whenLightning(): Promise<void> {
    return this.engines.whenStarted("lightning");
  }

  /**
   * Resolves once the node runs and its channels are back with their peers (or it has none), or after 30 s:
   * a payment asked for at start (a wallet-connect request that waited while the tab was closed) is then
   * decided on the wallet's real balance, not on channels still reconnecting.
   */
  async whenChannelsBack(): Promise<void> {
    await this.whenLightning();
    const end = Date.now() + 30_000;
    for (;;) {
      const ln = this.engines.port("lightning");
      if (!ln || ln.node.channels().length === 0 || usableChannels(ln).length > 0 || Date.now() > end) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Stops the engines; resolves once the node wrote its state and every event it reported is in the log. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    if (this.ecashInfoTimer) clearInterval(this.ecashInfoTimer);
    if (this.addressTimer) clearTimeout(this.addressTimer);
    await this.engines.stopAll();
    await this.lock.idle();
  }

  /** Runs `f` in the command queue: after every command before it, before every command after it. */
  private enqueue<T>(f: () => Promise<T>): Promise<T> {
    return this.lock.with(f);
  }

  /** What a handler sees; `states` is read anew on each access, so it is current after `outside`. */
  private context(hold: Hold): HandlerContext {
    const host = this;
    return {
      get states() {
        return host.states;
      },
      network: this.deps.config.network,
      config: this.deps.config,
      stamp: this.stampWith,
      keys: this.secrets.keys,
      onchain: this.engines.port("onchain"),
      lightning: this.engines.port("lightning"),
      ecash: this.engines.port("ecash"),
      fetch: this.deps.engines?.platform.fetch ?? null,
      loadFedimint: this.deps.engines?.platform.loadFedimint ?? null,
      nostr: this.engines.port("nostr"),
      outside: (effect) =>
        Effect.acquireUseRelease(
          Effect.sync(() => hold.release()),
          () => effect,
          () =>
            Effect.promise(async () => {
              hold.release = await host.lock.acquire();
            }),
        ),
    };
  }

  /** A chain sync, with the live syncing state the screens show around it. */
  private async sync(hold: Hold): Promise<CommandAnswer> {
    this.setLive({ is_syncing: true });
    const answer = await this.execute({ _tag: "SyncOnchain" }, hold);
    // The node's chain view moves with the wallet's: confirmations of channels, closes, sweeps.
    void this.engines.port("lightning")?.sync();
    this.setLive(
      answer.ok
        ? { is_syncing: false, last_sync: this.stampWith.now(), sync_error: null }
        : { is_syncing: false, sync_error: answer.error.message },
    );
    return answer;
  }

  private async execute(command: Command, hold: Hold): Promise<CommandAnswer> {
    if (this.stopped)
      return { ok: false, error: toWire(new WalletState({ message: "The wallet is stopped." })) };
    try {
      const result = await Effect.runPromise(Effect.result(this.decide(command, hold)));
      return Result.isSuccess(result)
        ? { ok: true, value: result.success }
        : { ok: false, error: toWire(result.failure) };
    } catch (e) {
      return { ok: false, error: toWire(unexpected(e)) };
    }
  }

  /** The commands that replace the log, the secrets or an engine run here; every other has a handler. */
  private decide(command: Command, hold: Hold): Effect.Effect<unknown, WalletError> {
    const { db, config, cipher } = this.deps;
    const whileStopped = <A>(f: () => Effect.Effect<A, WalletError>) =>
      Effect.promise(() => Promise.all([this.engines.stop("lightning"), this.engines.stop("ecash")])).pipe(
        Effect.flatMap(f),
      );
    switch (command._tag) {
      case "Unlock":
        return this.secrets
          .run(() => this.secrets.unlock(command.password))
          .pipe(
            Effect.tap((opened) =>
              opened
                ? Effect.promise(async () => {
                    this.setLive({ needs_password: false });
                    await this.unlocked();
                  })
                : Effect.void,
            ),
            Effect.as(null),
          );
      case "ChangePassword":
        return this.secrets
          .run(() =>
            this.secrets.changePassword(command, {
              exists: this.states.wallet.exists,
              backedUp: this.states.wallet.has_backed_up,
            }),
          )
          .pipe(
            Effect.tap((r) =>
              Effect.sync(() => this.setLive({ has_password: r.hasPassword, needs_password: false })),
            ),
          );
      case "ExportState":
        if (this.locked) return Effect.fail(lockedError());
        return exportState(
          db,
          this.crdtMissing ? null : crdtProjection.view(this.states.crdt),
          config.network,
          this.states.wallet.walletId ?? "",
          command.password,
          cipher,
          this.stampWith.now(),
          this.secrets.atRest(),
        );
      case "ImportState":
        // The node stops (writing its state) before anything of the file lands: nothing may write after.
        return whileStopped(() =>
          importStateEvents(
            db,
            command.text,
            command.password,
            config.network,
            // While locked the secrets on this device cannot be merged with: the file replaces them.
            this.locked ? null : this.states.wallet.walletId,
            cipher,
            this.secrets.atRest(),
          ),
        ).pipe(
          // What the log became is known from the import's own transaction: folded without reading it back.
          Effect.tap((written) => Effect.promise(() => this.reload(written))),
          Effect.map(({ imported }) => ({ imported })),
          // Imported or refused, the wallet runs again (a refused file changed nothing).
          Effect.ensuring(Effect.promise(() => this.startEngines())),
        );
      case "RestoreWallet": {
        if (!command.replace || !this.states.wallet.exists) return this.handle(command, hold);
        // Replacing: the words are checked before anything of the current wallet is removed.
        const problem = checkRestoreWords(normaliseWords(command.words.join(" ")));
        if (problem) return Effect.fail(problem);
        return whileStopped(() => deleteEverything(db)).pipe(
          Effect.tap(() => Effect.promise(() => this.reload())),
          Effect.flatMap(() => this.handle(command, hold)),
        );
      }
      case "DeleteEverything":
        return whileStopped(() => deleteEverything(db)).pipe(
          // The federations' clients keep their own databases: deleted with the wallet.
          Effect.tap(() =>
            Effect.promise(() =>
              import("../engine/ecash/fedimint/clients")
                .then((m) => m.deleteClientDatabases(config.network))
                .catch(() => undefined),
            ),
          ),
          Effect.tap(() => Effect.promise(() => this.reload())),
        );
      case "StopLightning":
        return whileStopped(() => Effect.succeed(null));
      case "GetNwcUri":
        // A connection just made may be asked for before its service started: it is started and awaited.
        return Effect.promise(async () => {
          if (!this.engines.port("nwc") && this.nwc.hooks().connections().length > 0) {
            await this.startEngines();
            await this.engines.whenStarted("nwc");
          }
          const port = this.engines.port("nwc");
          // The URI is given once the relay listens for its connection: the app may use it at once.
          await port?.ready();
          return port;
        }).pipe(
          Effect.flatMap((port) =>
            port
              ? Effect.succeed({ uri: port.uri(command.index) })
              : Effect.fail(new WalletState({ message: "The wallet-connect service is not running." })),
          ),
        );
      case "ApproveNwcInvoice":
        return Effect.promise(() => this.nwc.approve(command.id)).pipe(
          Effect.flatMap((r) =>
            typeof r === "string" ? Effect.fail(new InvalidInput({ message: r })) : Effect.succeed(r),
          ),
        );
      case "DenyNwcInvoice":
        return Effect.promise(() => this.nwc.deny([command.id])).pipe(Effect.as(null));
      case "DenyAllNwc":
        return Effect.promise(() =>
          this.nwc.deny([...this.states.nwc.requests.keys()]).then((denied) => ({ denied })),
        );
      case "StartLightning":
        return this.secrets.keys.mnemonic().pipe(
          Effect.tap((mnemonic) => Effect.sync(() => this.startNeeded(mnemonic))),
          Effect.as(null),
        );
      case "ResyncOnchain":
        // A fresh port has an empty scan cache: the next sync looks at every address again.
        return this.secrets.keys.mnemonic().pipe(
          Effect.flatMap((mnemonic) =>
            Effect.promise(async () => {
              const env = this.env();
              if (env) await this.engines.restart("onchain", this.states, mnemonic, env);
            }),
          ),
          Effect.flatMap(() => this.handle({ _tag: "SyncOnchain" }, hold)),
          Effect.as(null),
        );
      default:
        if (this.locked && needsSeed(needs[command._tag])) return Effect.fail(lockedError());
        return this.handle(command, hold);
    }
  }

  private handle(command: Command, hold: Hold): Effect.Effect<unknown, WalletError> {
    const handler = (handlers as Record<string, Handler<CommandTag> | undefined>)[command._tag];
    if (!handler) return Effect.fail(unexpected(new Error(`No handler for ${command._tag}`)));
    const self = this;
    return Effect.gen(function* () {
      const decided = yield* handler(command as never, self.context(hold));
      const hadWallet = self.states.wallet.exists;
      yield* Effect.tryPromise({ try: () => self.commit(decided), catch: unexpected });
      const joined = decided.events.some((e) => e.type === "ecash.joined");
      if ((!hadWallet && self.states.wallet.exists) || joined)
        yield* Effect.promise(() => self.startEngines());
      if (decided.events.some((e) => e.type === "nostr.queued" || e.type === "nostr.identity"))
        yield* Effect.sync(() => self.nostrChanged());
      return decided.result;
    });
  }

  /** Appends a decision's events and blobs, folds what was new, and pushes the views. */
  private async commit(decided: Pick<Outcome<unknown>, "events" | "kv">): Promise<void> {
    const events = stamp(decided.events, this.stampWith);
    const kv = await this.secrets.sealWrites(decided.kv ?? []);
    const fresh = await appendEvents(this.deps.db, events, kv);
    if (kv.some((w) => w.key === KV.seed)) this.secrets.forgetSeed();
    for (const e of fresh) this.states = foldEvent(this.states, e);
    if (fresh.length > 0) this.deps.onViews(this.views());
    if (fresh.length > 0) this.nwc.observe(fresh);
    if (fresh.some((e) => e.type === "crdt.change")) void this.connectionsChanged();
  }

  /** The owner's connections changed: the service starts, listens to the new set, or stops. */
  private async connectionsChanged(): Promise<void> {
    if (this.stopped) return;
    // A service still starting read the connections before this change: it takes it in once it runs.
    if (this.engines.isStarting("nwc")) await this.engines.whenStarted("nwc");
    const port = this.engines.port("nwc");
    const enabled = this.nwc.hooks().connections().length > 0;
    if (port && enabled) await port.refresh().catch(() => undefined);
    else if (port) await this.engines.stop("nwc");
    else if (enabled && !this.engines.isStarting("nwc")) await this.startEngines();
  }

  /** Whether engines may start: the wallet exists and is unlocked. */
  private canStart(): boolean {
    return this.states.wallet.exists && !this.locked && !this.stopped;
  }

  /** Starts an on-demand engine now (a command needs it); resolves once it runs or failed. */
  private async ensureEngine(name: EngineName): Promise<void> {
    const env = this.env();
    const mnemonic = await Effect.runPromise(Effect.result(this.secrets.keys.mnemonic()));
    if (env && Result.isSuccess(mnemonic)) await this.engines.ensure(name, mnemonic.success, env);
  }

  /** Something to publish was queued, or the identity changed: the outbox sends it (the engine starts if need be). */
  private nostrChanged(): void {
    const port = this.engines.port("nostr");
    if (port) port.flush();
    else if (this.canStart() && !this.engines.isStarting("nostr")) void this.ensureEngine("nostr");
  }

  /** The nostr engine's calls back into the wallet: what waits in the outbox, what a relay accepted, what all refused. */
  private nostrHooks(): EngineHooks["nostr"] {
    return {
      pending: () => pendingEvents(this.states.nostr),
      targets: (id) => targetRelays(this.states.nostr, id),
      published: (id, relay) =>
        this.enqueue(async () => {
          if (!this.states.nostr.outbox.has(id)) return;
          await this.commit({ events: [newEvent("nostr.published", { id, relay: relay.slice(0, 2_000) })] });
        }),
      failed: (id, refusals) =>
        this.enqueue(async () => {
          if (!this.states.nostr.outbox.has(id) || this.states.nostr.failed.has(id)) return;
          const kept = refusals
            .slice(0, 100)
            .map((r) => ({ relay: r.relay.slice(0, 2_000), reason: r.reason.slice(0, 300) }));
          await this.commit({ events: [newEvent("nostr.failed", { id, refusals: kept })] });
        }),
      onStatus: (status) => this.setLive({ nostr_relays: status }),
      arrived: (name, event) => this.arrived(name, event),
    };
  }

  /** Relay events the live message subscription brought, gathered for one ReceiveMessages. */
  private arrivals: NostrEvent[] = [];

  /**
   * A private message arrived on the live subscription: it is recorded at once (events that arrive together
   * in one command), and `live.messages_arrived` tells an open chat to read itself again.
   */
  private arrived(name: string, event: NostrEvent): void {
    if (name !== MESSAGES_WATCH || this.stopped) return;
    this.arrivals.push(event);
    if (this.arrivals.length > 1) return;
    setTimeout(() => {
      const events = this.arrivals;
      this.arrivals = [];
      if (this.stopped) return;
      void this.run({ _tag: "ReceiveMessages", events }).then((a) => {
        const received = a.ok ? (a.value as { received: number }).received : 0;
        if (received > 0) this.setLive({ messages_arrived: (this.live.messages_arrived ?? 0) + received });
      });
    }, 0);
  }

  /** After an import or a delete, the log on disk is the truth again. */
  private async reload(written?: {
    readonly replaced: boolean;
    readonly events: readonly StoredEvent[];
    /** The fold of the whole new log, when the import replaced it and already folded it. */
    readonly folded: States | null;
  }): Promise<void> {
    const wasLocked = this.locked;
    forgetRootKey();
    forgetSeedSecretKey();
    await Promise.all([
      this.engines.stop("onchain"),
      this.engines.stop("lightning"),
      this.engines.stop("ecash"),
      this.engines.stop("nostr"),
      this.engines.stop("nwc"),
    ]);
    await this.secrets.reload();
    this.states = !written
      ? foldEvents(await readEvents(this.deps.db))
      : written.replaced
        ? (written.folded ?? foldEvents(written.events))
        : written.events.reduce(foldEvent, this.states);
    this.live = { ...this.live, needs_password: this.locked, has_password: this.secrets.hasPassword };
    this.deps.onViews(this.views());
    if (wasLocked && !this.locked) await this.unlocked();
  }

  /** Outside the secrets queue, since the engines read their blobs as they start. */
  private async unlocked(): Promise<void> {
    await this.startEngines();
    this.deps.onUnlocked?.();
  }

  /** The engines start once the wallet exists and is unlocked, each in the background. */
  private async startEngines(): Promise<void> {
    if (!this.states.wallet.exists || this.locked) return;
    const mnemonic = await Effect.runPromise(Effect.result(this.secrets.keys.mnemonic()));
    if (Result.isSuccess(mnemonic)) this.startNeeded(mnemonic.success);
    // Payments to the lightning address while the wallet was closed wait as tokens: redeemed at start.
    if (!this.addressChecked && !this.deps.emergency) {
      this.addressChecked = true;
      void this.redeemAddressTokens();
    }
  }

  /**
   * Redeems the tokens the lightning-address service sent, at start and then every minute while the wallet
   * runs: a payment can reach the mint instead while the wallet is running too (the service asked while the
   * node was still starting, and the payer paid later).
   */
  private async redeemAddressTokens(): Promise<void> {
    if (this.stopped) return;
    if (this.states.lnaddress.reservation?.mint) await this.run({ _tag: "RedeemAddressTokens" });
    if (this.stopped) return;
    this.addressTimer = setTimeout(() => void this.redeemAddressTokens(), ADDRESS_CHECK_MS);
    // In Node (tests, replay) a wallet left open does not keep the process alive for it.
    (this.addressTimer as { unref?: () => void }).unref?.();
  }

  /** What the engines start from; null for a host that runs none (tests of the log and the secrets). */
  private env(): EngineEnv | null {
    const { config, engines } = this.deps;
    if (!engines) return null;
    return {
      config,
      platform: engines.platform,
      store: this.secrets.store,
      hooks: (name) =>
        (name === "lightning"
          ? this.lightningHooks()
          : name === "ecash"
            ? this.ecashHooks()
            : name === "nostr"
              ? this.nostrHooks()
              : name === "nwc"
                ? this.nwc.hooks()
                : {}) as never,
    };
  }

  private startNeeded(mnemonic: string): void {
    const env = this.env();
    if (env) this.engines.startNeeded(this.states, mnemonic, env);
  }

  private ecashHooks(): EngineHooks["ecash"] {
    return {
      mints: () =>
        [...this.states.ecash.custodians.values()]
          .filter((c) => c.joined || c.balance > 0n)
          .map((c) => c.mint),
      held: (mint) => this.states.ecash.custodians.get(mint)?.balance ?? 0n,
      // Only what the log does not have yet: an operation recorded before is not recorded again.
      record: (events) =>
        this.enqueue(() =>
          this.commit({
            events: events.filter(
              (e) =>
                (e.type !== "ecash.received" && e.type !== "ecash.sent") ||
                !this.states.ecash.ops.has(`${e.type}:${e.payload.op}`),
            ),
          }),
        ),
    };
  }

  private lightningHooks() {
    return lightningHooks({
      enqueue: (f) => this.enqueue(f),
      commit: (events: readonly NewEvent[]) => this.commit({ events }),
      states: () => this.states,
      onchain: () => this.engines.port("onchain"),
      lightning: () => this.engines.port("lightning"),
      live: () => this.live,
      setLive: (patch) => this.setLive(patch),
      failed: (message) => this.engines.failed("lightning", message),
      syncSoon: () => {
        if (this.syncTimer) return;
        this.syncTimer = setTimeout(() => {
          this.syncTimer = null;
          if (!this.stopped) void this.run({ _tag: "SyncOnchain" });
        }, 1000);
      },
    });
  }

  /** The live state the screens show of an engine (lightning's node; on-chain has no live state of its own). */
  private engineStatus(name: EngineName, status: EngineStatus): void {
    if (name === "lightning") this.setLive(lightningLive(status, this.engines.port("lightning")));
    // Payments a crash left unanswered are answered once the service runs again.
    if (name === "nwc" && status.state === "ready") void this.nwc.recover().catch(() => undefined);
    // A mint's name, messages and end date are read again when the wallet opens, then on a schedule.
    if (name === "ecash" && status.state === "ready" && !this.ecashInfoTimer && !this.stopped) {
      const refresh = () => void this.run({ _tag: "RefreshEcashInfo" }).catch(() => undefined);
      refresh();
      this.ecashInfoTimer = setInterval(refresh, ECASH_INFO_REFRESH_MS);
    }
  }
}

const needsSeed = (need: Need | readonly EngineName[] | undefined): boolean => {
  const engines: readonly string[] = need === undefined ? [] : typeof need === "string" ? [need] : need;
  return engines.some((e) => e === "seed" || e === "onchain" || e === "nostr");
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
