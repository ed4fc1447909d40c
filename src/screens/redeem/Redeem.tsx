import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import type { LnurlOffer } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { AmountEntry } from "../../ui/AmountEntry";
import { BackControl } from "../../ui/BackControl";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { useFormat } from "../../ui/useFormat";
import { useView, useWallet } from "../../ui/wallet";
import { PasteLink } from "./PasteLink";

/** How long the screen waits for a service that said OK to actually pay before saying it has not. */
const ARRIVAL_WAIT_MS = 60_000;

/** Redeem (spec 2): an LNURL-withdraw link, an amount within its limits, then 'lnurl redeem success'. */
export function Redeem() {
  const { t } = useI18n();
  const fmt = useFormat();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const lnurl = new URLSearchParams(useSearch()).get("lnurl") ?? "";
  const [offer, setOffer] = useState<LnurlOffer | null>(null);
  const [amount, setAmount] = useState<bigint | null>(null);
  const { busy, error, setError, run } = useAction();
  /** The invoice handed to the service, once it said it would pay it. */
  const [asked, setAsked] = useState<{ amountSats: bigint; paymentHash: string } | null>(null);
  const [late, setLate] = useState(false);
  const activity = useView("activity");
  // "Redeemed" only once the payment is in: a service's OK is a promise, not money.
  const arrived =
    asked !== null && (activity?.items ?? []).some((i) => i.id === asked.paymentHash && i.inbound);
  useEffect(() => {
    if (!asked || arrived) return;
    const timer = setTimeout(() => setLate(true), ARRIVAL_WAIT_MS);
    return () => clearTimeout(timer);
  }, [asked, arrived]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    // Another link pasted on this screen: what was said of the last one goes.
    setOffer(null);
    setError(null);
    if (!lnurl) return;
    client
      .dispatch({ _tag: "DecodeLnurl", lnurl })
      .then((o) => {
        if (o.tag !== "withdrawRequest") setError(t("redeem.lnurl_redeem_failed"));
        else {
          setOffer(o);
          if (o.minSats === o.maxSats) setAmount(o.maxSats);
        }
      })
      .catch((e) => setError(errorText(e)));
  }, [lnurl, client]);

  const redeem = () => {
    if (!offer || !amount) return;
    return run(
      async () =>
        setAsked(
          await client.dispatch({
            _tag: "LnurlWithdraw",
            lnurl,
            amountSats: amount,
            fingerprint: offer.fingerprint,
          }),
        ),
      { explain: (_, text) => text || t("redeem.lnurl_redeem_failed") },
    );
  };

  const outside = offer && amount !== null && (amount < offer.minSats || amount > offer.maxSats);
  return (
    <main className="screen">
      <BackControl />
      <h1>{t("redeem.title")}</h1>
      {offer ? (
        <Form onSubmit={redeem}>
          <p>{t("redeem.from", { domain: offer.domain })}</p>
          {offer.description ? (
            <blockquote className="service-words">
              <p>{t("lnurl.service_says", { domain: offer.domain, text: offer.description })}</p>
            </blockquote>
          ) : null}
          <AmountEntry
            id="redeem-amount"
            label={t("redeem.amount")}
            value={amount}
            onChange={setAmount}
            frozen={offer.minSats === offer.maxSats}
            onSubmit={() => void redeem()}
          />
          <p className="hint">
            {t("redeem.limits", { min: fmt.sats(offer.minSats), max: fmt.sats(offer.maxSats) })}
          </p>
          <ErrorBox text={outside ? t("lnurl.error_amount_range") : error} />
          {asked && !arrived ? (
            <p role="status" className={late ? "warning" : "hint"}>
              {late
                ? t("redeem.not_arrived", { domain: offer.domain })
                : t("redeem.waiting", { amount: fmt.sats(asked.amountSats) })}
            </p>
          ) : null}
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || asked !== null || !amount || !!outside}
          >
            {t("common.continue")}
          </button>
        </Form>
      ) : lnurl && !error ? (
        <p className="hint" aria-busy="true">
          {t("common.loading")}
        </p>
      ) : (
        // Nothing to redeem (yet): why the link given could not be, and a field to paste one.
        <>
          <ErrorBox text={lnurl ? error : null} />
          <PasteLink key={lnurl} />
        </>
      )}
      <ConfirmDialog
        open={arrived}
        title={t("redeem.lnurl_redeem_success")}
        message={t("redeem.success_text", { amount: fmt.sats(asked?.amountSats ?? 0n) })}
        onConfirm={() => navigate("/")}
        onCancel={() => navigate("/")}
      />
    </main>
  );
}
