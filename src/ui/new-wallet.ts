import { useSyncExternalStore } from "react";
import type { WalletClient } from "../commands/client";
import type { AllViews } from "../projections/live";

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

/**
 * What home shows of a wallet being made, before the worker (whose script may still be on its way) sends
 * any views: nothing held anywhere yet, which is true of a new wallet. The wallet is not there yet, so home
 * takes no action until the worker's views say it exists.
 */
export const NEW_WALLET_VIEWS: Partial<AllViews> = {
  wallet: { exists: false, walletId: null, network: null, has_backed_up: false, safe_mode: false },
  balance: {
    confirmed: 0n,
    unconfirmed: 0n,
    lightning: 0n,
    lightning_pending: 0n,
    lightning_sendable: 0n,
    federation: 0n,
    force_close: 0n,
    total: 0n,
  },
  activity: { items: [], total: 0 },
  contacts: [],
  federations: [],
  interrupted_opens: [],
  penalties: [],
  nwc: { profiles: [], pending: [] },
};

/** Asks the worker for a new wallet; resolves once it exists (its views are already in the client). */
export const makeNewWallet = (client: WalletClient): Promise<void> => {
  failure = null;
  // Home may show before the worker has sent anything: it draws from these until the worker's arrive.
  client.seed(NEW_WALLET_VIEWS);
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
