import { createContext, useContext } from "react";
import type { WalletConfig } from "../config";

export const ConfigContext = createContext<WalletConfig | null>(null);

export const useWalletConfig = (): WalletConfig => {
  const c = useContext(ConfigContext);
  if (!c) throw new Error("useWalletConfig outside ConfigContext");
  return c;
};
