/**
 * The send form's destination as typed, pasted, scanned or linked: parsed for the wallet's network, or the
 * catalogue's words for why it cannot be paid; and the LNURL service's offer when it is one.
 */
import { useEffect, useMemo, useState } from "react";
import { useLocation } from "wouter";
import type { LnurlOffer } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { useErrorText } from "../../ui/errors";
import { type ParsedPaymentRequest, parsePaymentRequest } from "../../ui/incoming";
import { useWallet } from "../../ui/wallet";

export interface ParsedDestination {
  readonly request: ParsedPaymentRequest | null;
  readonly problem: string | null;
}

/** `destination` parsed on the wallet's network; nothing (and no problem) while it is empty. */
export const useParsedDestination = (destination: string): ParsedDestination => {
  const { t } = useI18n();
  const { network } = useWalletConfig();
  return useMemo((): ParsedDestination => {
    const text = destination.trim();
    if (text === "") return { request: null, problem: null };
    try {
      return { request: parsePaymentRequest(text, network), problem: null };
    } catch (e) {
      const k = (e as { key?: string; values?: Record<string, string> }).key;
      return {
        request: null,
        problem:
          k === "payment_request.wrong_network"
            ? (e as Error).message
            : k === "payment_request.amount_mismatch"
              ? t(k)
              : t("send.error_address"),
      };
    }
  }, [destination, network, t]);
};

/**
 * An LNURL read from its service: a withdraw link goes to redeem, a pay link gives its offer (limits,
 * comment, nostr). `error`: why it could not be read, shown until the LNURL changes.
 */
export const useLnurlOffer = (lnurl: string | null) => {
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [offer, setOffer] = useState<LnurlOffer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    setOffer(null);
    setError(null);
    if (!lnurl) return;
    let current = true;
    client
      .dispatch({ _tag: "DecodeLnurl", lnurl })
      .then((o) => {
        if (!current) return;
        if (o.tag === "withdrawRequest") navigate(`/redeem?lnurl=${encodeURIComponent(lnurl)}`);
        else setOffer(o);
      })
      .catch((e) => current && setError(errorText(e)));
    return () => {
      current = false;
    };
  }, [lnurl, client, navigate]);
  return { offer, error };
};
