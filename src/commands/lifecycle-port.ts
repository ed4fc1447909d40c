/**
 * What the wallet-lifecycle commands (unlock, password, export, import, restore, delete, the node and the
 * chain scan started again) may ask of the host: stop and start the engines, read the log and the secrets
 * again after they were replaced on disk, the secrets themselves. They are handlers like every other; this
 * port is the only thing they get beyond the handler context. Where the wallet is kept (the device's
 * database today) and who may open it plug in here too.
 */
import type { Effect } from "effect";
import type { EngineName, EnginePorts } from "../engine/engine";
import type { StoredEvent, WalletDb } from "../events/db";
import type { WalletError } from "../errors";
import type { States } from "../projections";
import type { LiveState } from "../projections/live";
import type { Command } from "./command";
import type { Secrets } from "./wallet/secrets";
import type { StateCipher } from "./wallet/state-file";

/** What a write of the whole log left on disk, so the folds need not read it back. */
export interface Written {
  readonly replaced: boolean;
  readonly events: readonly StoredEvent[];
  /** The fold of the whole new log, when the import replaced it and already folded it. */
  readonly folded: States | null;
}

/** The wallet-connect desk as the owner's commands reach it (the running service's held payments). */
export interface NwcDeskPort {
  /** Pays a held request; a text when it cannot be approved. */
  readonly approve: (id: string) => Promise<{ readonly settle: () => Promise<{ paid: boolean }> } | string>;
  /** Denies held requests; resolves with how many were denied. */
  readonly deny: (ids: readonly string[]) => Promise<number>;
  /** Whether any connection is enabled (then its service runs). */
  readonly enabled: () => boolean;
}

/** What the engines' modules lend the lifecycle commands. */
export interface Services {
  readonly nwcDesk?: NwcDeskPort;
}

export interface WalletLifecycle {
  /** The seed and the engines' sealed blobs, and the password that seals them. */
  readonly secrets: Secrets;
  readonly db: WalletDb;
  readonly cipher: StateCipher;
  /** Emergency mode without Automerge: the owner-edited document cannot be read. */
  readonly crdtMissing: boolean;
  readonly setLive: (patch: Partial<LiveState>) => void;
  /** The live state the screens show now (the node's, the storage server's). */
  readonly live: () => LiveState;
  /** Stops these engines; resolves once each wrote what it must. */
  readonly stopEngines: (names: readonly EngineName[]) => Promise<void>;
  /** Starts, in the background, the engines the wallet needs, when it exists and is unlocked. */
  readonly startEngines: () => Promise<void>;
  /** Starts, in the background, the engines the wallet needs from this seed. */
  readonly startNeeded: (mnemonic: string) => void;
  /** Stops one engine and starts it anew from the seed (resolves once it runs or failed). */
  readonly restartEngine: (name: EngineName, mnemonic: string) => Promise<void>;
  readonly whenStarted: (name: EngineName) => Promise<void>;
  readonly port: <N extends EngineName>(name: N) => EnginePorts[N] | null;
  /**
   * After the log or the secrets were replaced on disk: every engine stops, the secrets and the folds are
   * read again, the views are pushed, and a wallet that became unlocked starts.
   */
  readonly reload: (written?: Written) => Promise<void>;
  /** The right password was entered: the engines start and the app hears the wallet is usable. */
  readonly unlocked: () => Promise<void>;
  /** Runs another command's handler in this same turn of the queue, its events committed. */
  readonly handle: (command: Command) => Effect.Effect<unknown, WalletError>;
  readonly services: Services;
}
