import { Effect, Result } from "effect";
import type { WalletDb } from "../events/db";
import { appendEvents, readEvents, readKv } from "../events/log";
import { type Stamp, stamp } from "../events/make";
import { KV } from "../events/storage-keys";
import { crdtProjection } from "../projections/crdt";
import { settingsOf } from "../projections/settings";
import { deriveViews, foldEvent, foldEvents, type States } from "../projections";
import type { OnchainPort } from "../engine/onchain/port";
import type { Command, CommandTag } from "./command";
import type { Handler, HandlerContext, KeysPort } from "./context";
import { toWire, unexpected, type WalletError, WalletState, type WireError } from "./errors";
import { handlers } from "./handlers";
import { checkRestoreWords } from "./wallet";
import { normaliseWords } from "../engine/keys/mnemonic";
import type { AllViews, LiveState, WalletConfig } from "./protocol";
import { deleteEverything, exportState, importState, type StateCipher } from "./state-file";

export type CommandAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

export interface HostDeps {
  readonly db: WalletDb;
  readonly config: WalletConfig;
  readonly cipher: StateCipher;
  /** Called with the views after every change of the log or of the live state. */
  readonly onViews: (views: Partial<AllViews>) => void;
  readonly uuid?: () => string;
  readonly now?: () => number;
  /** Builds the on-chain engine once the wallet's seed is known. */
  readonly makeOnchain?: (mnemonic: string) => OnchainPort;
}

/**
 * The wallet inside the worker: the log, the folds, the engines and the command queue. Commands run one
 * at a time, so every handler decides on the state the previous command left. A handler's events are
 * durable in IndexedDB before its answer is sent.
 */
export class WalletHost {
  private states: States;
  private mnemonicCache: string | null = null;
  private onchain: OnchainPort | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  live: LiveState;

  private constructor(
    private readonly deps: HostDeps,
    private readonly stampWith: Stamp,
    states: States,
  ) {
    this.states = states;
    this.live = { price: null, fiat: "BTC", is_syncing: false, last_sync: null, sync_error: null };
  }

  static async open(deps: HostDeps): Promise<WalletHost> {
    const uuid = deps.uuid ?? (() => crypto.randomUUID());
    let device = await readKv<string>(deps.db, KV.device);
    if (!device) {
      device = uuid().replaceAll("-", "");
      await deps.db.kv.put({ key: KV.device, value: device });
    }
    const states = foldEvents(await readEvents(deps.db));
    const host = new WalletHost(deps, { uuid, now: deps.now ?? (() => Date.now()), device }, states);
    await host.startEngines();
    return host;
  }

  get exists(): boolean {
    return this.states.wallet.exists;
  }

  /** The fiat currency the owner chose. */
  get fiat(): string {
    return settingsOf(crdtProjection.view(this.states.crdt)).fiat;
  }

  views(): AllViews {
    return { ...deriveViews(this.states), live: this.live };
  }

  /** Runs a command after those before it; never rejects. */
  run(command: Command): Promise<CommandAnswer> {
    const next = this.queue.then(() =>
      command._tag === "SyncOnchain" ? this.sync() : this.execute(command),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  setLive(patch: Partial<LiveState>): void {
    this.live = { ...this.live, ...patch };
    this.deps.onViews({ live: this.live });
  }

  stop(): void {
    this.stopped = true;
  }

  private keys: KeysPort = {
    mnemonic: () =>
      Effect.tryPromise({
        try: async () => {
          if (this.mnemonicCache) return this.mnemonicCache;
          const seed = await readKv<{ mnemonic?: string }>(this.deps.db, KV.seed);
          if (!seed?.mnemonic) throw new WalletState({ message: "There is no wallet on this device yet." });
          this.mnemonicCache = seed.mnemonic;
          return seed.mnemonic;
        },
        catch: (e) => (e instanceof WalletState ? e : unexpected(e)),
      }),
  };

  private context(): HandlerContext {
    return {
      states: this.states,
      network: this.deps.config.network,
      stamp: this.stampWith,
      keys: this.keys,
      onchain: this.onchain,
    };
  }

  /** A chain sync, with the live syncing state the screens show around it. */
  private async sync(): Promise<CommandAnswer> {
    this.setLive({ is_syncing: true });
    const answer = await this.execute({ _tag: "SyncOnchain" });
    this.setLive(
      answer.ok
        ? { is_syncing: false, last_sync: this.stampWith.now(), sync_error: null }
        : { is_syncing: false, sync_error: answer.error.message },
    );
    return answer;
  }

  private async execute(command: Command): Promise<CommandAnswer> {
    if (this.stopped)
      return { ok: false, error: toWire(new WalletState({ message: "The wallet is stopped." })) };
    try {
      const result = await Effect.runPromise(Effect.result(this.decide(command)));
      return Result.isSuccess(result)
        ? { ok: true, value: result.success }
        : { ok: false, error: toWire(result.failure) };
    } catch (e) {
      return { ok: false, error: toWire(unexpected(e)) };
    }
  }

  private decide(command: Command): Effect.Effect<unknown, WalletError> {
    const { db, config, cipher } = this.deps;
    switch (command._tag) {
      case "ExportState":
        return exportState(
          db,
          crdtProjection.view(this.states.crdt),
          config.network,
          this.states.wallet.walletId ?? "",
          command.password,
          cipher,
          this.stampWith.now(),
        );
      case "ImportState":
        return importState(
          db,
          command.text,
          command.password,
          config.network,
          this.states.wallet.walletId,
          cipher,
        ).pipe(Effect.tap(() => Effect.promise(() => this.reload())));
      case "RestoreWallet": {
        if (!command.replace || !this.states.wallet.exists) return this.handle(command);
        // Replacing: the words are checked before anything of the current wallet is removed.
        const problem = checkRestoreWords(normaliseWords(command.words.join(" ")));
        if (problem) return Effect.fail(problem);
        return deleteEverything(db).pipe(
          Effect.tap(() => Effect.promise(() => this.reload())),
          Effect.flatMap(() => this.handle(command)),
        );
      }
      case "DeleteEverything":
        return deleteEverything(db).pipe(Effect.tap(() => Effect.promise(() => this.reload())));
      default:
        return this.handle(command);
    }
  }

  private handle(command: Command): Effect.Effect<unknown, WalletError> {
    const handler = (handlers as Record<string, Handler<CommandTag> | undefined>)[command._tag];
    if (!handler) return Effect.fail(unexpected(new Error(`No handler for ${command._tag}`)));
    const self = this;
    return Effect.gen(function* () {
      const decided = yield* handler(command as never, self.context());
      const events = stamp(decided.events, self.stampWith);
      const kv = decided.kv ?? [];
      const fresh = yield* Effect.tryPromise({
        try: () => appendEvents(self.deps.db, events, kv),
        catch: unexpected,
      });
      if (kv.some((w) => w.key === KV.seed)) self.mnemonicCache = null;
      const hadWallet = self.states.wallet.exists;
      for (const e of fresh) self.states = foldEvent(self.states, e);
      if (fresh.length > 0) self.deps.onViews(self.views());
      if (!hadWallet && self.states.wallet.exists) yield* Effect.promise(() => self.startEngines());
      return decided.result;
    });
  }

  /** After an import or a delete, the log on disk is the truth again. */
  private async reload(): Promise<void> {
    this.mnemonicCache = null;
    this.onchain = null;
    this.states = foldEvents(await readEvents(this.deps.db));
    this.deps.onViews(this.views());
  }

  private async startEngines(): Promise<void> {
    if (!this.states.wallet.exists || !this.deps.makeOnchain || this.onchain) return;
    const mnemonic = await Effect.runPromise(Effect.result(this.keys.mnemonic()));
    if (Result.isSuccess(mnemonic)) this.onchain = this.deps.makeOnchain(mnemonic.success);
  }
}
