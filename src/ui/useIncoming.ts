import { useCallback } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { useWalletConfig } from "./config";
import { pathFor } from "./incoming";

/**
 * Takes a pasted, scanned or linked string where it leads (spec 1 §4). Answers the words to show when
 * it cannot be used, or null once it navigated.
 */
export const useIncoming = (): ((raw: string) => string | null) => {
  const [, navigate] = useLocation();
  const { network } = useWalletConfig();
  const { t, has } = useI18n();
  return useCallback(
    (raw: string) => {
      const r = pathFor(raw, network);
      if ("path" in r) {
        navigate(r.path);
        return null;
      }
      return has(r.error.key) ? t(r.error.key, r.error.values) : r.error.message;
    },
    [navigate, network, t, has],
  );
};
