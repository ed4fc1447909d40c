import { useCallback, useSyncExternalStore } from "react";

/**
 * Preferences of this browser that are not wallet state (how the balance is shown). Kept in local
 * storage behind this module so screens never touch storage directly.
 */
export type BalanceShown = "sats" | "fiat" | "hidden";
const KEY = "balanceView";
const listeners = new Set<() => void>();

const read = (): BalanceShown => {
  try {
    const v = localStorage.getItem(KEY);
    return v === "fiat" || v === "hidden" ? v : "sats";
  } catch {
    return "sats";
  }
};

export const nextBalanceShown = (v: BalanceShown): BalanceShown =>
  v === "sats" ? "fiat" : v === "fiat" ? "hidden" : "sats";

export function useBalanceShown(): [BalanceShown, () => void] {
  const value = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    read,
    read,
  );
  const cycle = useCallback(() => {
    try {
      localStorage.setItem(KEY, nextBalanceShown(read()));
    } catch {
      // storage blocked: the view still cycles for this page
    }
    for (const l of listeners) l();
  }, []);
  return [value, cycle];
}

/** A yes or no remembered on this browser; where storage is blocked it reads no and is not kept. */
const browserFlag = (key: string) => ({
  read: (): boolean => {
    try {
      return localStorage.getItem(key) === "1";
    } catch {
      return false;
    }
  },
  mark: (): void => {
    try {
      localStorage.setItem(key, "1");
    } catch {
      // storage blocked: asked again (or told again) at the next start
    }
  },
});

const shutdownSeen = browserFlag("shutdownWarningSeen");
/** Whether the owner has closed the shutdown warning on this browser (spec 1 home modals). */
export const shutdownWarningSeen = shutdownSeen.read;
export const markShutdownWarningSeen = shutdownSeen.mark;

const lightningRan = browserFlag("lightningRanHere");
/**
 * Whether lightning has run on this browser: when another device holds the wallet's lock, this one was taken
 * over (`storage.taken_over`) rather than opened second (where storage is blocked, it reads as opened second).
 */
export const lightningRanHere = lightningRan.read;
export const markLightningRanHere = lightningRan.mark;

const RESTORE_CARD = "storageRestoreCard";

/**
 * What a restore brought back, kept on this browser until the owner closes its card ("Got it"): a reload
 * before then shows it again.
 */
export const keptRestore = <T>(): T | null => {
  try {
    const raw = localStorage.getItem(RESTORE_CARD);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
};

export const keepRestore = (found: unknown | null): void => {
  try {
    if (found === null) localStorage.removeItem(RESTORE_CARD);
    else localStorage.setItem(RESTORE_CARD, JSON.stringify(found));
  } catch {
    // storage blocked: the card shows until this page closes
  }
};
