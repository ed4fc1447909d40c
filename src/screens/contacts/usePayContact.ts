import { useCallback } from "react";
import { useLocation } from "wouter";
import type { ContactRecord } from "../../crdt/doc";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { useToast } from "../../ui/toast";

/** What a contact is paid at: its lightning address, else its lnurl; null when it has neither. */
export const payTarget = (c: Pick<ContactRecord, "ln_address" | "lnurl">): string | null =>
  c.ln_address ?? c.lnurl ?? null;

/**
 * Pay (spec 1 §2 contacts): the contact's lightning address or lnurl read for the wallet's network the way
 * a pasted one is, then /send with it and the contact, whose name the send screen shows and whose id
 * labels the payment. A string that cannot be used is a toast with the reason.
 */
export const usePayContact = (): ((c: ContactRecord) => void) => {
  const [, navigate] = useLocation();
  const { network } = useWalletConfig();
  const { t, has } = useI18n();
  const toast = useToast();
  return useCallback(
    (c: ContactRecord) => {
      const target = payTarget(c);
      // The parsers come on first use: home, where contacts are, draws without them.
      void import("../../ui/incoming").then(({ pathFor }) => {
        const r = target === null ? null : pathFor(target, network);
        if (r !== null && "path" in r && r.path.startsWith("/send?")) {
          navigate(`${r.path}&contact=${encodeURIComponent(c.id)}`);
          return;
        }
        const reason =
          r === null || "path" in r
            ? t("contacts.error_no_pay_target")
            : has(r.error.key)
              ? t(r.error.key, r.error.values)
              : r.error.message;
        toast({ title: t("common.error"), description: reason, isError: true });
      });
    },
    [navigate, network, t, has, toast],
  );
};
