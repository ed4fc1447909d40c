/**
 * What an engine's module adds to the host beside the engine itself: the hooks the engine calls back into
 * the wallet with, and what it does as commands are answered, events are committed, engines change status,
 * and the wallet starts and stops. Each engine's attachment lives beside its handlers (`hooks.ts`,
 * `hooks.ts`, ...) and is listed in `attachments.ts`; the host calls them all and names none.
 */
import type { EngineName } from "../engine/engine";
import type { FetchFn } from "../engine/http/bounded";
import type { StoredEvent, WalletDb } from "../events/db";
import type { WalletEvent } from "../events/types";
import type { BlobStore } from "../engine/lightning/store";
import type { NewEvent } from "../events/make";
import type { WireError } from "../errors";
import type { States } from "../projections";
import type { LiveState } from "../projections/live";
import type { WalletConfig } from "../config";
import type { Command } from "./command";
import type { EngineRunner, EngineStatus } from "./engines";
import type { Services } from "./lifecycle-port";

export type CommandAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

/** The host as an attachment sees it. */
export interface HostSide {
  readonly config: WalletConfig;
  /** Emergency mode: the owner opened the emergency kit; nothing runs in the background. */
  readonly emergency: boolean;
  readonly now: () => number;
  readonly states: () => States;
  readonly live: () => LiveState;
  readonly setLive: (patch: Partial<LiveState>) => void;
  /** Runs `f` in the command queue: after every command before it, before every command after it. */
  readonly enqueue: <T>(f: () => Promise<T>) => Promise<T>;
  /** Appends events (in the queue, through `enqueue`), folds them and pushes the views. */
  readonly commit: (events: readonly NewEvent[]) => Promise<void>;
  /** The wallet's database (the log is read from it; written through `commit` and `merge` only). */
  readonly db: WalletDb;
  /** The engines' blob store, sealed at rest with the password. */
  readonly blobs: BlobStore;
  /**
   * Appends events another device of this wallet recorded (in the queue, through `enqueue`), keeping their
   * ids and times; folds those new here and pushes the views. Answers the new ones.
   */
  readonly merge: (events: readonly WalletEvent[]) => Promise<readonly StoredEvent[]>;
  /** Runs a command as the owner's screens do (it takes its own turn in the queue). */
  readonly run: (command: Command) => Promise<CommandAnswer>;
  /** The wallet was stopped: nothing is started or run any more. */
  readonly stopped: () => boolean;
  readonly engines: EngineRunner;
  /** Starts, in the background, the engines the wallet needs, when it exists and is unlocked. */
  readonly startEngines: () => Promise<void>;
  /** Starts an on-demand engine now; resolves once it runs or failed. */
  readonly ensureEngine: (name: EngineName) => Promise<void>;
  /** Whether engines may start: the wallet exists, is unlocked and runs. */
  readonly canStart: () => boolean;
  /** The wallet's words, once it exists and is unlocked; null before. */
  readonly mnemonic: () => Promise<string | null>;
  /** The platform's fetch, for the host's own requests to the wallet's servers; null where no engine runs. */
  readonly fetch: FetchFn | null;
}

export interface Attachment {
  /** The engine whose hooks these are; absent for a wallet service that runs beside the engines. */
  readonly engine?: EngineName;
  /** What the engine calls back into the wallet with (`EngineHooks[engine]`), asked for as it starts. */
  readonly hooks?: () => unknown;
  /** What it lends the lifecycle commands. */
  readonly services?: Services;
  /** Wraps a command's run in the queue (what the views show around it). */
  readonly around?: (command: Command, run: () => Promise<CommandAnswer>) => Promise<CommandAnswer>;
  /** Whether a command's events make an engine needed: the engines the wallet needs start after it. */
  readonly startsEngines?: (events: readonly NewEvent[]) => boolean;
  /** A command's events are in the log (and the engines they made needed are starting). */
  readonly decided?: (events: readonly NewEvent[]) => void;
  /** A command succeeded (a payment: once under way); runs beside the queue. */
  readonly answered?: (command: Command, result: unknown) => void;
  /** Events were appended, by a command or an engine. */
  readonly committed?: (fresh: readonly StoredEvent[]) => void;
  /** An engine (any) changed status. */
  readonly status?: (name: EngineName, status: EngineStatus) => void;
  /** The device woke (the browser is back online, the page is shown again): connections are looked at now. */
  readonly wake?: () => void;
  /** The wallet asked its engines to start (it exists and is unlocked). */
  readonly started?: () => void;
  /** The wallet stops: timers end; what must be written before the engines stop is awaited. */
  readonly stop?: () => void | Promise<void>;
}

export type Attach = (side: HostSide) => Attachment;
