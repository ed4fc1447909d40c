import { WalletClient } from "./commands/client";
import type { LoadStage } from "./commands/protocol";
import type { WalletConfig } from "./config";

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
} as const;

export interface BootState {
  readonly stage: LoadStage;
  readonly error: string | null;
  readonly client: WalletClient | null;
}

/** Which boot-error screen a message gets, by its prefix (spec 1 §2). */
export type BootErrorKind = "network" | "existing_tab" | "already_running" | "browser" | "failed";
export const bootErrorKind = (message: string): BootErrorKind =>
  message.startsWith("Network connection closed")
    ? "network"
    : message.startsWith("Existing tab")
      ? "existing_tab"
      : message.startsWith("Mutiny is already running")
        ? "already_running"
        : message.startsWith("Browser error")
          ? "browser"
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

/**
 * Holds the wallet's Web Lock for as long as this tab lives. Resolves true when this tab got it; false
 * when another tab holds it (two engines on one wallet is how funds are lost).
 */
export const holdWalletLock = (): Promise<boolean> =>
  new Promise((resolve) => {
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

/** The boot already under way in this page, and who wants to hear of it. */
let current: { state: BootState; reporters: Set<(s: BootState) => void> } | null = null;

/**
 * Runs the boot flow of spec 1 §4 and reports each step: existing tab, browser checks, double-init,
 * loading the engine, then setup. Setup that takes over 90 s ends with the timeout message. A second
 * call in the same page (a remount) joins the boot already running instead of starting another engine.
 */
export const boot = async (config: WalletConfig, report: (s: BootState) => void): Promise<void> => {
  if (current) {
    current.reporters.add(report);
    report(current.state);
    return;
  }
  const run = {
    state: { stage: "fresh", error: null, client: null } as BootState,
    reporters: new Set([report]),
  };
  current = run;
  const set = (patch: Partial<BootState>) => {
    run.state = { ...run.state, ...patch };
    for (const r of run.reporters) r(run.state);
  };
  set({});
  if (!(await holdWalletLock())) return set({ error: BOOT_MESSAGES.existingTab });
  const problem = browserProblem(globalThis as never);
  if (problem) return set({ error: problem });

  set({ stage: "checking_double_init" });
  set({ stage: "downloading" });
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "wallet" });
  const client = new WalletClient(worker);
  const timeout = setTimeout(() => {
    if (client.stage !== "done") set({ error: BOOT_MESSAGES.timeout });
  }, SETUP_TIMEOUT_MS);
  client.subscribe(() => {
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
  worker.onerror = (e) =>
    set({ error: `Failed to initialize Mutiny: ${e.message || "the wallet engine did not start"}` });
  set({ client });
  client.start(config);
};
