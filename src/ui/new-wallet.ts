import { useSyncExternalStore } from "react";
import type { WalletClient } from "../commands/client";

/**
 * The new wallet being made: "New wallet" was pressed and the worker has not answered yet. The first-run
 * profile step needs nothing of the wallet, so it shows at once while the worker (which may still be
 * starting behind the welcome screen) writes the seed; what needs the wallet there waits for `walletMade`.
 */
let making: Promise<void> | null = null;
/** Why the last attempt failed, for the welcome screen to show once. */
let failure: unknown = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

/** Asks the worker for a new wallet; resolves once it exists (its views are already in the client). */
export const makeNewWallet = (client: WalletClient): Promise<void> => {
  failure = null;
  const run = client.dispatch({ _tag: "CreateWallet" }).then(() => undefined);
  making = run;
  emit();
  run
    .catch((e: unknown) => {
      failure = e;
    })
    .finally(() => {
      if (making === run) making = null;
      emit();
    });
  return run;
};

/** Resolves once the wallet being made exists (at once when none is being made); rejects if it failed. */
export const walletMade = (): Promise<void> => making ?? Promise.resolve();

/** Whether a new wallet is being made right now (the screens may then show the steps that follow it). */
export const useMakingWallet = (): boolean =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => making !== null,
    () => making !== null,
  );

/** Why making the wallet failed, once (the welcome screen shows it after the profile step gave way). */
export const takeNewWalletFailure = (): unknown => {
  const f = failure;
  failure = null;
  return f;
};
