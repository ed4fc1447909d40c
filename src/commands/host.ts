import { Effect, Result } from "effect";
import type { WalletDb } from "../events/db";
import { appendEvents, readEvents, readKv } from "../events/log";
import { type Stamp, stamp } from "../events/make";
import { KV } from "../events/storage-keys";
import { crdtProjection } from "../projections/crdt";
import { settingsOf } from "../projections/settings";
import { deriveViews, foldEvent, foldEvents, type States } from "../projections";
import type { OnchainPort } from "../engine/onchain/port";
import type { LightningDeps, LightningPort } from "../engine/lightning/live";
import type { BlobStore } from "../engine/lightning/store";
import { scriptFor } from "../engine/onchain/networks";
import { hex } from "@scure/base";
import { type NewEvent, newEvent } from "../events/make";
import type { Outcome } from "./context";
import type { Command, CommandTag } from "./command";
import type { Handler, HandlerContext, KeysPort } from "./context";
import { isWalletError, toWire, unexpected, type WalletError, WalletState, type WireError } from "./errors";
import { handlers } from "./handlers";
import { isStartedPayment } from "./lightning";
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
  /** Starts the lightning node once the on-chain engine runs (not in safe mode). */
  readonly makeLightning?: (hooks: LightningHooks) => Promise<LightningPort>;
}

/** What the host gives the lightning engine: the seed, its store, and the on-chain wallet. */
export type LightningHooks = Pick<
  LightningDeps,
  "mnemonic" | "store" | "fund" | "sweepScript" | "record" | "knownChannels" | "onChainActivity" | "onLive"
>;

/**
 * The wallet inside the worker: the log, the folds, the engines and the command queue. Commands run one
 * at a time, so every handler decides on the state the previous command left. A handler's events are
 * durable in IndexedDB before its answer is sent.
 */
export class WalletHost {
  private states: States;
  private mnemonicCache: string | null = null;
  private onchain: OnchainPort | null = null;
  private lightning: LightningPort | null = null;
  private lightningStarting: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  live: LiveState;

  private constructor(
    private readonly deps: HostDeps,
    private readonly stampWith: Stamp,
    states: States,
  ) {
    this.states = states;
    this.live = {
      price: null,
      fiat: "BTC",
      is_syncing: false,
      last_sync: null,
      sync_error: null,
      lightning: "off",
      lightning_error: null,
      node_id: null,
      online_peers: [],
    };
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
    // A payment on its way is awaited here, outside the queue.
    return next.then(async (answer) => {
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

  /** Stops the engines; resolves once the node wrote its state and every event it reported is in the log. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.syncSoon) clearTimeout(this.syncSoon);
    await this.lightningStarting;
    const ln = this.lightning;
    this.lightning = null;
    if (ln) await ln.stop();
    await this.queue;
  }

  /** Runs `f` in the command queue: after every command before it, before every command after it. */
  private enqueue<T>(f: () => Promise<T>): Promise<T> {
    const next = this.queue.then(f);
    this.queue = next.catch(() => undefined);
    return next;
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
      lightning: this.lightning,
    };
  }

  /** A chain sync, with the live syncing state the screens show around it. */
  private async sync(): Promise<CommandAnswer> {
    this.setLive({ is_syncing: true });
    const answer = await this.execute({ _tag: "SyncOnchain" });
    // The node's chain view moves with the wallet's: confirmations of channels, closes, sweeps.
    void this.lightning?.sync();
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
      const hadWallet = self.states.wallet.exists;
      yield* Effect.tryPromise({ try: () => self.commit(decided), catch: unexpected });
      if (!hadWallet && self.states.wallet.exists) yield* Effect.promise(() => self.startEngines());
      return decided.result;
    });
  }

  /** Appends a decision's events and blobs, folds what was new, and pushes the views. */
  private async commit(decided: Pick<Outcome<unknown>, "events" | "kv">): Promise<void> {
    const events = stamp(decided.events, this.stampWith);
    const kv = decided.kv ?? [];
    const fresh = await appendEvents(this.deps.db, events, kv);
    if (kv.some((w) => w.key === KV.seed)) this.mnemonicCache = null;
    for (const e of fresh) this.states = foldEvent(this.states, e);
    if (fresh.length > 0) this.deps.onViews(this.views());
  }

  /** After an import or a delete, the log on disk is the truth again. */
  private async reload(): Promise<void> {
    this.mnemonicCache = null;
    this.onchain = null;
    const ln = this.lightning;
    this.lightning = null;
    this.lightningStarting = null;
    if (ln) await ln.stop();
    this.setLive({ lightning: "off", node_id: null, online_peers: [] });
    this.states = foldEvents(await readEvents(this.deps.db));
    this.deps.onViews(this.views());
  }

  private async startEngines(): Promise<void> {
    if (!this.states.wallet.exists || !this.deps.makeOnchain || this.onchain) return;
    const mnemonic = await Effect.runPromise(Effect.result(this.keys.mnemonic()));
    if (!Result.isSuccess(mnemonic)) return;
    this.onchain = this.deps.makeOnchain(mnemonic.success);
    // The node loads in the background: home and on-chain work before it is ready.
    void this.startLightning(mnemonic.success);
  }

  /** Resolves once the lightning node is running, has failed, or will not start (safe mode). */
  whenLightning(): Promise<void> {
    return this.lightningStarting ?? Promise.resolve();
  }

  private startLightning(mnemonic: string): Promise<void> {
    if (!this.deps.makeLightning || this.lightning || this.lightningStarting) return Promise.resolve();
    if (this.states.wallet.safe_mode) {
      this.setLive({ lightning: "safe_mode" });
      return Promise.resolve();
    }
    this.setLive({ lightning: "starting", lightning_error: null });
    const make = this.deps.makeLightning;
    this.lightningStarting = (async () => {
      try {
        const ln = await make(this.lightningHooks(mnemonic));
        if (this.stopped) {
          await ln.stop();
          return;
        }
        this.lightning = ln;
        this.setLive({ lightning: "ready", node_id: ln.node.nodeId, online_peers: this.onlinePeers() });
      } catch (e) {
        this.setLive({ lightning: "failed", lightning_error: e instanceof Error ? e.message : String(e) });
      }
    })();
    return this.lightningStarting;
  }

  private onlinePeers(): string[] {
    return this.lightning
      ? this.lightning.node
          .peers()
          .filter((p) => p.connected)
          .map((p) => p.pubkey)
      : [];
  }

  private syncSoon: ReturnType<typeof setTimeout> | null = null;

  private lightningHooks(mnemonic: string): LightningHooks {
    const { db } = this.deps;
    const store: BlobStore = {
      get: async (key) => (await db.kv.get(key))?.value as Uint8Array | undefined,
      put: (writes) =>
        db.transaction("rw", db.kv, async () => {
          for (const w of writes) {
            if (w.value === null) await db.kv.delete(w.key);
            else await db.kv.put({ key: w.key, value: w.value });
          }
        }),
      keys: async (prefix) => (await db.kv.where("key").startsWith(prefix).primaryKeys()) as string[],
    };
    return {
      mnemonic,
      store,
      fund: (script, sats) =>
        this.enqueue(async () => {
          const onchain = this.onchain;
          if (!onchain) throw new Error("The on-chain wallet is not running");
          const out = await Effect.runPromise(
            onchain.spend(this.states.onchain, { kind: "pay", script, amountSats: sats }, [], {
              broadcast: false,
            }),
          );
          await this.commit({ events: out.events });
          return { tx: hex.decode(out.hex), txid: out.txid, feeSats: out.feeSats };
        }),
      sweepScript: () =>
        this.enqueue(async () => {
          const onchain = this.onchain;
          if (!onchain) throw new Error("The on-chain wallet is not running");
          const index = this.states.onchain.nextIndex.internal;
          const address = onchain.addressAt("internal", index);
          await this.commit({
            events: [
              newEvent("onchain.address_issued", { address, keychain: "internal", index, labels: [] }),
            ],
          });
          return scriptFor(address, onchain.network);
        }),
      record: (events: readonly NewEvent[]) => {
        void this.enqueue(() => this.commit({ events })).catch(() => undefined);
      },
      knownChannels: () => this.states.lightning.channels,
      onChainActivity: () => {
        if (this.syncSoon) return;
        this.syncSoon = setTimeout(() => {
          this.syncSoon = null;
          if (!this.stopped) void this.run({ _tag: "SyncOnchain" });
        }, 1000);
      },
      onLive: () => {
        const online = this.onlinePeers();
        if (JSON.stringify(online) !== JSON.stringify(this.live.online_peers))
          this.setLive({ online_peers: online });
      },
    };
  }
}
