import { createContext, type ReactNode, useCallback, useContext, useSyncExternalStore } from "react";
import type { WalletClient } from "../commands/client";
import type { AllViews } from "../projections/live";

const WalletContext = createContext<WalletClient | null>(null);

export function WalletProvider({ client, children }: { client: WalletClient; children: ReactNode }) {
  return <WalletContext.Provider value={client}>{children}</WalletContext.Provider>;
}

export const useWallet = (): WalletClient => {
  const c = useContext(WalletContext);
  if (!c) throw new Error("useWallet outside WalletProvider");
  return c;
};

/** A view the worker pushed; undefined until the first push (screens show skeletons meanwhile). */
export function useView<K extends keyof AllViews>(name: K): AllViews[K] | undefined {
  const client = useWallet();
  const get = useCallback(() => client.views[name], [client, name]);
  return useSyncExternalStore(client.subscribe, get, get);
}
