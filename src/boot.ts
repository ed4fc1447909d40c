import { WalletClient } from "./commands/client";
import type { LoadStage } from "./commands/protocol";
import { MISSING_DEFAULT, type WalletConfig } from "./config";
import { walletDbName } from "./events/db-name";
import type { Network } from "./events/types";
import { readWalletFlag, walletFlagKey } from "./wallet-flag";

/** Boot constants of spec 1 §9. */
export const SETUP_TIMEOUT_MS = 90_000;
export const STUCK_AFTER_MS = 10_000;
export const WALLET_LOCK = "mutiny-wallet";

export const BOOT_MESSAGES = {
  existingTab: "Existing tab detected, aborting setup",
  timeout: "Load timed out, please try again",
  noLocalStorage: "Browser error: LocalStorage is not supported.",
  noWasm: "Browser error: WebAssembly is not supported.",
  noIndexedDb: "Browser error: IndexedDB is not supported.",
  missingDefault: MISSING_DEFAULT,
} as const;

export interface BootState {
  readonly stage: LoadStage;
  readonly error: string | null;
  readonly client: WalletClient | null;
  /** The wallet failed to start and runs in emergency mode: the kit's repairs, no engines. */
  readonly emergency?: boolean;
}

/** Which boot-error screen a message gets, by its prefix (spec 1 §2). */
export type BootErrorKind =
  | "network"
  | "existing_tab"
  | "already_running"
  | "browser"
  | "missing_default"
  | "failed";
export const bootErrorKind = (message: string): BootErrorKind =>
  message.startsWith("Network connection closed")
    ? "network"
    : message.startsWith("Existing tab")
      ? "existing_tab"
      : message.startsWith("Mutiny is already running")
        ? "already_running"
        : message.startsWith("Browser error")
          ? "browser"
          : message === MISSING_DEFAULT
            ? "missing_default"
            : "failed";

/** The browser features the wallet cannot run without; the first missing one's message, else null. */
export const browserProblem = (g: {
  localStorage?: unknown;
  WebAssembly?: unknown;
  indexedDB?: unknown;
}): string | null => {
  try {
    if (!g.localStorage) return BOOT_MESSAGES.noLocalStorage;
  } catch {
    return BOOT_MESSAGES.noLocalStorage;
  }
  if (typeof g.WebAssembly !== "object") return BOOT_MESSAGES.noWasm;
  if (!g.indexedDB) return BOOT_MESSAGES.noIndexedDb;
  return null;
};

/** The lock's request, made once per page: the tab keeps the lock it gets until it closes. */
let lockHeld: Promise<boolean> | null = null;

/**
 * Holds the wallet's Web Lock for as long as this tab lives. Resolves true when this tab got it; false
 * when another tab holds it (two engines on one wallet is how funds are lost). Asked once per page.
 */
export const holdWalletLock = (): Promise<boolean> => {
  lockHeld ??= new Promise((resolve) => {
    if (!navigator.locks) {
      resolve(true);
      return;
    }
    void navigator.locks.request(WALLET_LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(false);
        return null;
      }
      resolve(true);
      return new Promise<never>(() => undefined);
    });
  });
  return lockHeld;
};

/**
 * Whether this browser surely holds no wallet on `network`, known without the worker, any wasm or opening
 * the database: the flag the page keeps from the worker's views, else the list of IndexedDB databases (a
 * browser that never opened the wallet's database has no wallet). "maybe" whenever it cannot tell.
 */
export const knownWallet = async (
  network: Network,
  storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage,
  idb: Pick<IDBFactory, "databases"> | undefined = globalThis.indexedDB,
): Promise<"none" | "maybe"> => {
  try {
    const flag = readWalletFlag(network, storage);
    if (flag === "0") return "none";
    if (flag === "1") return "maybe";
    if (typeof idb?.databases !== "function") return "maybe";
    const dbs = await idb.databases();
    return dbs.some((d) => d.name === walletDbName(network)) ? "maybe" : "none";
  } catch {
    return "maybe";
  }
};

/** The wallet's worker, made once per page. */
const makeWorker = (): Worker =>
  new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "wallet" });

/** A worker made before the boot (see `startWorkerEarly`), not yet given to it. */
let early: Worker | null = null;
/** The boot made or took its worker: no early one is made after that. */
let booted = false;
/** Why the early worker failed to load, when it did before the boot took it (its script would not load). */
let earlyFailure: string | null = null;

/**
 * A browser that remembers holding a wallet on `network` makes its worker as soon as this tab holds the
 * wallet's lock, before the page has even rendered: the worker's script loads meanwhile, and a returning
 * wallet's engines start that much sooner. A second tab (no lock) never makes one. The boot takes it over
 * and tells it to start. A browser with no wallet makes its worker after the welcome screen is painted, or
 * (`pressed`) the moment "New wallet" is pressed on the screen drawn before the app, so the worker's script
 * comes beside the app's rather than after its first frame.
 */
export const startWorkerEarly = (
  network: Network,
  storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage,
  pressed = false,
): void => {
  if (!pressed && readWalletFlag(network, storage) !== "1") return;
  void holdWalletLock().then((held) => {
    if (!held || early || booted || browserProblem(globalThis as never)) return;
    try {
      early = makeWorker();
      early.addEventListener("error", (e) => {
        earlyFailure ??= e.message || "the wallet engine did not start";
      });
    } catch {
      // The boot makes it, or reports what is missing.
    }
  });
};

/** Keeps the flag of `knownWallet` in step with the wallet the worker reports. */
const rememberWallet = (network: Network, exists: boolean) => {
  try {
    const key = walletFlagKey(network);
    const value = exists ? "1" : "0";
    if (localStorage.getItem(key) !== value) localStorage.setItem(key, value);
  } catch {
    // No storage: the next visit asks IndexedDB instead.
  }
};

/** The boot already under way in this page, and who wants to hear of it. */
let current: {
  state: BootState;
  reporters: Set<(s: BootState) => void>;
  set: (patch: Partial<BootState>) => void;
} | null = null;

/**
 * Runs the boot flow of spec 1 §4 and reports each step: existing tab, browser checks, double-init,
 * loading the engine, then setup. Setup that takes over 90 s ends with the timeout message. A second
 * call in the same page (a remount) joins the boot already running instead of starting another engine.
 */
export const boot = async (
  config: WalletConfig,
  report: (s: BootState) => void,
  opts: {
    /** The client screens already hold (the welcome screen shows before the worker exists). */
    readonly client?: WalletClient;
    /** Resolves when the worker may start: after the first screen is painted, so nothing delays it. */
    readonly workerAfter?: Promise<void>;
  } = {},
): Promise<void> => {
  if (current) {
    current.reporters.add(report);
    report(current.state);
    return;
  }
  const run = {
    state: { stage: "fresh", error: null, client: null } as BootState,
    reporters: new Set([report]),
    set: (patch: Partial<BootState>) => {
      run.state = { ...run.state, ...patch };
      for (const r of run.reporters) r(run.state);
    },
  };
  current = run;
  const set = run.set;
  set({});
  if (!(await holdWalletLock())) return set({ error: BOOT_MESSAGES.existingTab });
  const problem = browserProblem(globalThis as never);
  if (problem) return set({ error: problem });
  // A build without a server it cannot run without stops here, not at a dead URL (spec 1 §5).
  if (config.missingDefaults?.length) return set({ error: BOOT_MESSAGES.missingDefault });

  set({ stage: "checking_double_init" });
  set({ stage: "downloading" });
  await opts.workerAfter;
  const worker = early ?? makeWorker();
  early = null;
  booted = true;
  const client = opts.client ?? new WalletClient();
  client.attach(worker);
  const timeout = setTimeout(() => {
    if (client.stage !== "done") set({ error: BOOT_MESSAGES.timeout });
  }, SETUP_TIMEOUT_MS);
  client.subscribe(() => {
    const wallet = client.views.wallet;
    if (wallet) rememberWallet(config.network, wallet.exists);
    if (client.bootError) {
      clearTimeout(timeout);
      set({ error: client.bootError });
    } else if (client.views.live?.needs_password) {
      // Waiting for the owner's password is not a slow setup.
      clearTimeout(timeout);
      if (client.stage !== run.state.stage) set({ stage: client.stage });
    } else if (client.stage !== run.state.stage) {
      if (client.stage === "done") clearTimeout(timeout);
      set({ stage: client.stage });
    }
  });
  worker.onerror = (e) => {
    if (!run.state.emergency)
      set({ error: `Failed to initialize Mutiny: ${e.message || "the wallet engine did not start"}` });
  };
  // The early worker may have failed before the boot listened to it.
  if (earlyFailure && !run.state.emergency) set({ error: `Failed to initialize Mutiny: ${earlyFailure}` });
  set({ client });
  client.start(config);
};

/**
 * Emergency mode (spec 2's emergency kit): the wallet's worker failed to start, so a minimal one takes its
 * place in this tab (which still holds the wallet's lock). It opens the database with no engines, and the
 * kit's save, import, delete and log download work through it. A reload starts the wallet normally again.
 */
export const startEmergency = (config: WalletConfig, client: WalletClient): void => {
  const run = current;
  if (!run || run.state.emergency) return;
  const worker = new Worker(new URL("./emergency-worker.ts", import.meta.url), {
    type: "module",
    name: "wallet-emergency",
  });
  worker.onerror = (e) =>
    run.set({ error: `Failed to initialize Mutiny: ${e.message || "the emergency kit did not start"}` });
  client.replaceWorker(worker);
  run.set({ emergency: true, error: null, client, stage: "fresh" });
  client.start(config);
};
