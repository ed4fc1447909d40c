import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from "react";
import type { WalletClient } from "../commands/client";
import type { CommandOf, CommandTag, ResultOf } from "../commands/command";
import { useErrorText } from "./errors";
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

/**
 * What the worker answers to `command` while the screen shows it: the answer once it came, or the failure's
 * words; asked again when `key` changes (an answer that comes after the screen left is dropped).
 */
export function useAnswer<K extends CommandTag>(
  command: CommandOf<K>,
  key: unknown,
): { readonly value: ResultOf<K> | null; readonly error: string | null } {
  const client = useWallet();
  const errorText = useErrorText();
  const [value, setValue] = useState<ResultOf<K> | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the command; `errorText` only formats
  useEffect(() => {
    let current = true;
    client
      .dispatch(command)
      .then((r) => current && setValue(r))
      .catch((e) => current && setError(errorText(e)));
    return () => {
      current = false;
    };
  }, [client, key]);
  return { value, error };
}
