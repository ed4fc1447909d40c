import type { Network } from "./events/types";

/** Where this browser remembers whether it holds a wallet on a network: "1" or "0". */
export const walletFlagKey = (network: Network): string => `wallet_exists_${network}`;

/** What this browser remembers of holding a wallet on `network`: "1", "0", or null when it cannot say. */
export const readWalletFlag = (
  network: Network,
  storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage,
): string | null => {
  try {
    return storage?.getItem(walletFlagKey(network)) ?? null;
  } catch {
    return null;
  }
};
