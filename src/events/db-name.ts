import type { Network } from "./types";

/** The IndexedDB database of a network's wallet (a module of its own: the page asks for it without Dexie). */
export const walletDbName = (network: Network): string => `mutiny-wallet-${network}`;
