import { Effect, Result } from "effect";
import type { WalletDb } from "../events/db";
import type { KvRow } from "../events/db";
import { appendEvents, readEvents, readKv } from "../events/log";
import { type Stamp, stamp } from "../events/make";
import { isEngineBlobKey, isSecretKey, KV } from "../events/storage-keys";
import type { KdfParams, VaultKey } from "../engine/vault";
import {
  AT_REST_KDF_PARAMS,
  checkPasswordChange,
  lockedError,
  newVaultKey,
  openValue,
  readVault,
  rekeySecrets,
  sealValue,
  unlockVault,
} from "./at-rest";
import { crdtProjection } from "../projections/crdt";
import { settingsOf } from "../projections/settings";
import { deriveViews, foldEvent, foldEvents, type States } from "../projections";
import type { OnchainPort } from "../engine/onchain/port";
import type { LightningHooks, LightningPort } from "../engine/lightning/live";
import type { BlobStore } from "../engine/lightning/store";
import { scriptFor } from "../engine/onchain/networks";
import { hex } from "@scure/base";
import { type NewEvent, newEvent } from "../events/make";
import type { Outcome } from "./context";
import type { Command, CommandTag } from "./command";
import type { Handler, HandlerContext, KeysPort } from "./context";
import {
  isWalletError,
  toWire,
  Unexpected,
  unexpected,
  type WalletError,
  WalletState,
  type WireError,
  wrongPassword,
} from "../errors";
import { handlers } from "./handlers";
import { isStartedPayment } from "./lightning";
import { checkRestoreWords } from "./wallet";
import { forgetRootKey, normaliseWords } from "../engine/keys/mnemonic";
import type { AllViews, LiveState, WalletConfig } from "./protocol";
import { type AtRest, deleteEverything, exportState, importState, type StateCipher } from "./state-file";

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
  /** Called when a locked wallet becomes usable: the right password, or its removal by a restore. */
  readonly onUnlocked?: () => void;
  /** KDF parameters for a new password (tests use weak ones to stay fast). */
  readonly kdf?: KdfParams;
}

/** An engine blob to store (`value`) or delete (`null`). */
export interface EngineBlobWrite {
  readonly key: string;
  readonly value: Uint8Array | null;
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
  private lightning: LightningPort | null = null;
  private lightningStarting: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Serialises every read and write of sealed entries with password changes. */
  private secrets: Promise<unknown> = Promise.resolve();
  /** The stored check value while a password is set; the key once the owner unlocked. */
  private vault: unknown;
  private vaultKey: VaultKey | null = null;
  private stopped = false;
  live: LiveState;

  private constructor(
    private readonly deps: HostDeps,
    private readonly stampWith: Stamp,
    states: States,
    vault: unknown,
  ) {
    this.states = states;
    this.vault = vault;
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
      needs_password: vault !== undefined,
      has_password: vault !== undefined,
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
    const vault = await readVault(deps.db);
    const host = new WalletHost(deps, { uuid, now: deps.now ?? (() => Date.now()), device }, states, vault);
    await host.startEngines();
    return host;
  }

  get exists(): boolean {
    return this.states.wallet.exists;
  }

  /** A password is set and the owner has not entered it yet: nothing secret can be read. */
  get locked(): boolean {
    return this.vault !== undefined && this.vaultKey === null;
  }

  /** Safe mode: the wallet runs without lightning (the owner turned it on in the emergency kit). */
  get safeMode(): boolean {
    return this.states.wallet.safe_mode;
  }

  /**
   * Stores and deletes engine blobs (keys starting with `ln/`) in one IndexedDB transaction, sealed with
   * the wallet's key when a password is set. Resolves once durable. Rejects with `PasswordRequired`
   * while locked and with `Unexpected` for a key outside the engine's prefix.
   */
  putEngineBlobs(writes: readonly EngineBlobWrite[]): Promise<void> {
    for (const w of writes) {
      if (!isEngineBlobKey(w.key))
        return Promise.reject(new Unexpected({ message: `Not an engine blob key: ${w.key}` }));
      if (w.value !== null && !(w.value instanceof Uint8Array))
        return Promise.reject(new Unexpected({ message: `Engine blob ${w.key} must be bytes` }));
    }
    return this.withSecrets(async () => {
      if (this.locked) throw lockedError();
      const key = this.vaultKey;
      const rows: { key: string; value: unknown }[] = [];
      for (const w of writes)
        rows.push({ key: w.key, value: w.value === null ? null : await sealValue(key, w.key, w.value) });
      const { db } = this.deps;
      await db.transaction("rw", db.kv, async () => {
        for (const r of rows) {
          if (r.value === null) await db.kv.delete(r.key);
          else await db.kv.put(r);
        }
      });
    });
  }

  /** One engine blob, opened; undefined when absent. Rejects with `PasswordRequired` while locked. */
  getEngineBlob(key: string): Promise<Uint8Array | undefined> {
    return this.withSecrets(async () => {
      const stored = await readKv<unknown>(this.deps.db, key);
      if (stored === undefined) return undefined;
      const value = await openValue(this.vaultKey, key, stored);
      if (!(value instanceof Uint8Array))
        throw new Unexpected({ message: `Engine blob ${key} is not bytes` });
      return value;
    });
  }

  /** The keys of stored engine blobs that start with `prefix`, in key order. */
  async listEngineBlobKeys(prefix: string): Promise<string[]> {
    const keys = (await this.deps.db.kv.where("key").startsWith(prefix).primaryKeys()) as string[];
    return keys.filter(isEngineBlobKey);
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
    // A command for the node while it is still starting (just after opening the wallet) waits for it
    // rather than failing; one that does not need it never waits.
    if (NEEDS_NODE.has(command._tag) && this.live.lightning === "starting") {
      return this.whenLightning().then(() => this.run(command));
    }
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

  private withSecrets<A>(f: () => Promise<A>): Promise<A> {
    const next = this.secrets.then(f);
    this.secrets = next.catch(() => undefined);
    return next;
  }

  /**
   * Secret entries on the way out of and into a state file: opened for an export, sealed with this
   * device's key for an import. An unlocked password stays in place when an import replaces the wallet.
   */
  private atRest(): AtRest {
    const key = this.vaultKey;
    const mapRows = (f: (r: KvRow) => Promise<unknown>) => (rows: readonly KvRow[]) =>
      this.withSecrets(async () => {
        const out: KvRow[] = [];
        for (const r of rows) out.push({ key: r.key, value: await f(r) });
        return out;
      });
    return {
      open: mapRows((r) => openValue(key, r.key, r.value)),
      seal: mapRows((r) => sealValue(key, r.key, r.value)),
      keep: key ? [KV.vault] : [],
    };
  }

  private keys: KeysPort = {
    mnemonic: () =>
      Effect.tryPromise({
        try: async () => {
          if (this.mnemonicCache) return this.mnemonicCache;
          const stored = await readKv<unknown>(this.deps.db, KV.seed);
          const seed = (await openValue(this.vaultKey, KV.seed, stored)) as { mnemonic?: string } | undefined;
          if (!seed?.mnemonic) throw new WalletState({ message: "There is no wallet on this device yet." });
          this.mnemonicCache = seed.mnemonic;
          return seed.mnemonic;
        },
        catch: (e) => (isWalletError(e) ? e : unexpected(e)),
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
      case "Unlock":
        return this.secretsEffect(() => this.unlock(command.password)).pipe(
          Effect.tap((opened) => (opened ? Effect.promise(() => this.unlocked()) : Effect.void)),
          Effect.as(null),
        );
      case "ChangePassword":
        return this.secretsEffect(() => this.changePassword(command));
      case "ExportState":
        if (this.locked) return Effect.fail(lockedError());
        return exportState(
          db,
          crdtProjection.view(this.states.crdt),
          config.network,
          this.states.wallet.walletId ?? "",
          command.password,
          cipher,
          this.stampWith.now(),
          this.atRest(),
        );
      case "ImportState":
        // The node stops (writing its state) before anything of the file lands: nothing may write after.
        return Effect.promise(() => this.stopLightning()).pipe(
          Effect.flatMap(() =>
            importState(
              db,
              command.text,
              command.password,
              config.network,
              // While locked the secrets on this device cannot be merged with: the file replaces them.
              this.locked ? null : this.states.wallet.walletId,
              cipher,
              this.atRest(),
            ),
          ),
          Effect.tap(() => Effect.promise(() => this.reload())),
          // Imported or refused, the wallet runs again (a refused file changed nothing).
          Effect.ensuring(Effect.promise(() => this.startEngines())),
        );
      case "RestoreWallet": {
        if (!command.replace || !this.states.wallet.exists) return this.handle(command);
        // Replacing: the words are checked before anything of the current wallet is removed.
        const problem = checkRestoreWords(normaliseWords(command.words.join(" ")));
        if (problem) return Effect.fail(problem);
        return Effect.promise(() => this.stopLightning()).pipe(
          Effect.flatMap(() => deleteEverything(db)),
          Effect.tap(() => Effect.promise(() => this.reload())),
          Effect.flatMap(() => this.handle(command)),
        );
      }
      case "DeleteEverything":
        return Effect.promise(() => this.stopLightning()).pipe(
          Effect.flatMap(() => deleteEverything(db)),
          Effect.tap(() => Effect.promise(() => this.reload())),
        );
      case "StopLightning":
        return Effect.promise(() => this.stopLightning()).pipe(Effect.as(null));
      case "StartLightning":
        return this.keys.mnemonic().pipe(
          Effect.tap((mnemonic) => Effect.sync(() => void this.startLightning(mnemonic))),
          Effect.as(null),
        );
      case "ResyncOnchain":
        return this.keys.mnemonic().pipe(
          Effect.tap((mnemonic) =>
            Effect.sync(() => {
              // A fresh port has an empty scan cache: the next sync looks at every address again.
              if (this.deps.makeOnchain) this.onchain = this.deps.makeOnchain(mnemonic);
            }),
          ),
          Effect.flatMap(() => this.handle({ _tag: "SyncOnchain" })),
          Effect.as(null),
        );
      default:
        if (this.locked && NEEDS_UNLOCK.has(command._tag)) return Effect.fail(lockedError());
        return this.handle(command);
    }
  }

  private secretsEffect<A>(f: () => Promise<A>): Effect.Effect<A, WalletError> {
    return Effect.tryPromise({
      try: () => this.withSecrets(f),
      catch: (e) => (isWalletError(e) ? e : unexpected(e)),
    });
  }

  /** True when this opened a locked wallet. */
  private async unlock(password: string): Promise<boolean> {
    if (!this.locked) return false;
    this.vaultKey = await unlockVault(this.vault, password);
    this.setLive({ needs_password: false });
    return true;
  }

  /** Outside the secrets queue, since the engines read their blobs as they start. */
  private async unlocked(): Promise<void> {
    await this.startEngines();
    this.deps.onUnlocked?.();
  }

  private async changePassword(change: {
    existing: string;
    password: string;
    confirm: string;
  }): Promise<{ hasPassword: boolean }> {
    if (this.locked) throw lockedError();
    if (!this.states.wallet.exists)
      throw new WalletState({ message: "There is no wallet on this device yet." });
    const problem = checkPasswordChange(change, this.states.wallet.has_backed_up);
    if (problem) throw problem;
    // The existing password must be the one set (blank when none is).
    const from = this.vault === undefined ? null : await unlockVault(this.vault, change.existing);
    if (this.vault === undefined && change.existing !== "") throw wrongPassword();
    const to =
      change.password === "" ? null : await newVaultKey(change.password, this.deps.kdf ?? AT_REST_KDF_PARAMS);
    await rekeySecrets(this.deps.db, from, to);
    this.vault = await readVault(this.deps.db);
    this.vaultKey = to;
    this.setLive({ has_password: to !== null, needs_password: false });
    return { hasPassword: to !== null };
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
    // Secrets are sealed before the transaction: WebCrypto cannot run inside one.
    const kv = await this.withSecrets(async () => {
      const out = [];
      for (const w of decided.kv ?? [])
        out.push(
          w.value === null || !isSecretKey(w.key)
            ? w
            : { key: w.key, value: await sealValue(this.vaultKey, w.key, w.value) },
        );
      return out;
    });
    const fresh = await appendEvents(this.deps.db, events, kv);
    if (kv.some((w) => w.key === KV.seed)) this.mnemonicCache = null;
    for (const e of fresh) this.states = foldEvent(this.states, e);
    if (fresh.length > 0) this.deps.onViews(this.views());
  }

  /** After an import or a delete, the log on disk is the truth again. */
  private async reload(): Promise<void> {
    const wasLocked = this.locked;
    this.mnemonicCache = null;
    forgetRootKey();
    this.onchain = null;
    await this.stopLightning();
    this.states = foldEvents(await readEvents(this.deps.db));
    this.vault = await readVault(this.deps.db);
    if (this.vault === undefined) this.vaultKey = null;
    this.live = { ...this.live, needs_password: this.locked, has_password: this.vault !== undefined };
    this.deps.onViews(this.views());
    if (wasLocked && !this.locked) await this.unlocked();
  }

  /** The engines start once the wallet exists and is unlocked; lightning never in safe mode. */
  private async startEngines(): Promise<void> {
    if (!this.states.wallet.exists || this.locked) return;
    const mnemonic = await Effect.runPromise(Effect.result(this.keys.mnemonic()));
    if (!Result.isSuccess(mnemonic)) return;
    if (this.deps.makeOnchain && !this.onchain) this.onchain = this.deps.makeOnchain(mnemonic.success);
    // The node loads in the background: home and on-chain work before it is ready.
    void this.startLightning(mnemonic.success);
  }

  /** Stops the node (it writes its state first); the wallet runs on without lightning until started. */
  private async stopLightning(): Promise<void> {
    await this.lightningStarting;
    const ln = this.lightning;
    this.lightning = null;
    this.lightningStarting = null;
    if (ln) await ln.stop();
    this.setLive({
      lightning: "off",
      lightning_stage: null,
      node_id: null,
      online_peers: [],
      usable_channels: [],
    });
  }

  /** Resolves once the lightning node is running, has failed, or will not start (safe mode). */
  whenLightning(): Promise<void> {
    return this.lightningStarting ?? Promise.resolve();
  }

  private startLightning(mnemonic: string): Promise<void> {
    if (!this.deps.makeLightning || this.lightning || this.live.lightning === "starting")
      return this.lightningStarting ?? Promise.resolve();
    if (this.safeMode) {
      this.setLive({ lightning: "safe_mode", lightning_stage: null });
      return Promise.resolve();
    }
    this.setLive({ lightning: "starting", lightning_stage: "loading", lightning_error: null });
    const make = this.deps.makeLightning;
    this.lightningStarting = (async () => {
      try {
        const ln = await make(this.lightningHooks(mnemonic));
        if (this.stopped) {
          await ln.stop();
          return;
        }
        this.lightning = ln;
        this.setLive({
          lightning: "ready",
          lightning_stage: null,
          node_id: ln.node.nodeId,
          online_peers: this.onlinePeers(),
          usable_channels: this.usableChannels(),
        });
      } catch (e) {
        this.setLive({
          lightning: "failed",
          lightning_stage: null,
          lightning_error: e instanceof Error ? e.message : String(e),
        });
      }
    })();
    return this.lightningStarting;
  }

  /** Channels that can send and receive now: ready, peer connected and the channel re-established. */
  private usableChannels(): string[] {
    return this.lightning
      ? this.lightning.node
          .channels()
          .filter((c) => c.isUsable)
          .map((c) => c.channelId)
      : [];
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
    // Sealed at rest with the owner's password when one is set.
    const store: BlobStore = {
      get: (key) => this.getEngineBlob(key),
      put: (writes) => this.putEngineBlobs(writes),
      keys: (prefix) => this.listEngineBlobKeys(prefix),
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
      promisedLspFee: (paymentHash) => this.states.lightning.lspFees.get(paymentHash)?.feeMsat ?? null,
      onChainActivity: () => {
        if (this.syncSoon) return;
        this.syncSoon = setTimeout(() => {
          this.syncSoon = null;
          if (!this.stopped) void this.run({ _tag: "SyncOnchain" });
        }, 1000);
      },
      onStage: (stage) => {
        // A node stopped while it started may still report: only the one starting now is shown.
        if (this.live.lightning === "starting" && !this.lightning) this.setLive({ lightning_stage: stage });
      },
      onLive: () => {
        const online = this.onlinePeers();
        const usable = this.usableChannels();
        if (
          JSON.stringify(online) !== JSON.stringify(this.live.online_peers) ||
          JSON.stringify(usable) !== JSON.stringify(this.live.usable_channels)
        )
          this.setLive({ online_peers: online, usable_channels: usable });
      },
    };
  }
}

/** Commands that use the lightning node. */
const NEEDS_NODE: ReadonlySet<CommandTag> = new Set<CommandTag>([
  "CreateInvoice",
  "PayInvoice",
  "Keysend",
  "ListPeers",
  "ConnectPeer",
  "DisconnectPeer",
  "DeletePeer",
  "OpenChannel",
  "SweepAllToChannel",
  "CloseChannel",
  "CreateReceive",
  "EstimateReceiveFee",
  "LnurlPayInvoice",
  "LnurlWithdraw",
]);

/** Commands that read a secret (the seed, or an engine built from it) and so wait for the password. */
const NEEDS_UNLOCK: ReadonlySet<CommandTag> = new Set<CommandTag>([
  "ShowSeed",
  "GetNewAddress",
  "CreateBip21",
  "EstimateTxFee",
  "SendToAddress",
  "EstimateSweepTxFee",
  "SweepWallet",
  "SyncOnchain",
]);
