import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import type { PaymentMethod } from "../../ui/amount-entry";
import { methodKey, nextMethod } from "../../ui/amount-entry";
import { AmountEntry } from "../../ui/AmountEntry";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox } from "../../ui/errors";
import { fromProtocolLink, isHodlDestination } from "../../ui/incoming";
import { useFormat } from "../../ui/useFormat";
import { readClipboard } from "../../ui/clipboard";
import { useView } from "../../ui/wallet";
import { HighFeeDialog, RepeatDialog, WhyFeesDialog } from "./ConfirmDialogs";
import { DestinationField } from "./DestinationField";
import { useEcashSource } from "./ecash-source";
import { useLnurlOffer, useParsedDestination } from "./destination";
import { useFee } from "./fee";
import { usePayment } from "./payment";
import { nextPrivacy, type Privacy } from "./privacy";
import { RequestSummary } from "./RequestSummary";
import { ResultDialog } from "./ResultDialog";
import {
  amountProblem,
  fixedAmount,
  methodsFor,
  routeFor,
  type SendRoute,
  waitsForChannel,
} from "./send-rules";

/**
 * Send (spec 1 §5): the destination (from a scan, a link or typed), the amount with the method to pay
 * by, the fee before confirming, then the result. Every rule is decided in send-rules and the worker.
 */
export function Send() {
  const { t } = useI18n();
  const fmt = useFormat();
  const [, navigate] = useLocation();
  const balance = useView("balance");
  const params = new URLSearchParams(useSearch());
  const to = params.get("to") ?? "";
  // Paying a contact (its privateTag): its name is shown, and its id labels the payment.
  const contactId = params.get("contact");
  const contacts = useView("contacts");
  const linked = contactId ? (contacts?.find((c) => c.id === contactId) ?? null) : null;
  const [destination, setDestination] = useState(fromProtocolLink(to));
  // Only while the destination is still the contact's own.
  const contact = linked && destination.trim() === fromProtocolLink(to).trim() ? linked : null;
  const [amount, setAmount] = useState<bigint | null>(null);
  const [method, setMethod] = useState<PaymentMethod["method"]>("lightning");
  const [sendAll, setSendAll] = useState(false);
  const [comment, setComment] = useState("");
  // Spec 1 send: the privacy of a payment to a contact with a social key (a zap, NIP-57).
  const [privacy, setPrivacy] = useState<Privacy>("NotAvailable");
  const [whyFees, setWhyFees] = useState(false);

  const parsed = useParsedDestination(destination);
  const request = parsed.request;
  // Lightning's "up to" is what can leave now: the channels' reserves and a channel still opening stay back.
  const balances = {
    lightning: balance?.lightning_sendable ?? 0n,
    onchain: (balance?.confirmed ?? 0n) + (balance?.unconfirmed ?? 0n),
  };
  const lightningHeld = (balance?.lightning ?? 0n) + (balance?.lightning_pending ?? 0n) > balances.lightning;
  // Ecash pays an invoice only where it covers the amount and the mint's fee: then it is a source to choose.
  const federations = useView("federations");
  const ecash = useEcashSource(request?.invoice ?? null, request?.amount_sats ?? null, federations);
  const methods = request
    ? methodsFor(request, balances, ecash ? { ...ecash.custodian, balance: ecash.balance } : null)
    : [];
  const chosen = methods.some((m) => m.method === method) ? method : (methods[0]?.method ?? "onchain");
  const current = methods.find((m) => m.method === chosen);
  const route: SendRoute | null = request ? routeFor(request, chosen) : null;
  const fromEcash = chosen === "ecash" && ecash ? ecash : null;
  // An LNURL is read from its service: a withdraw link goes to redeem, a pay link gives its limits.
  const { offer, error: lnurlError } = useLnurlOffer(route?.kind === "lnurl" ? route.lnurl : null);
  const lnurlRange = offer && offer.tag === "payRequest" ? { min: offer.minSats, max: offer.maxSats } : null;
  const fixed = request ? fixedAmount(request, route, lnurlRange) : null;
  const amountSats = fixed ?? amount ?? 0n;

  const problem =
    request && route
      ? amountProblem({
          amountSats,
          route,
          balance: fromEcash
            ? fromEcash.balance - fromEcash.quote.feeSats
            : chosen === "lightning"
              ? balances.lightning
              : balances.onchain,
          invoiceAmount: route.kind === "invoice" ? request.amount_sats : null,
          expiresAt: null,
          nowSecs: Math.floor(Date.now() / 1000),
          lnurlRange,
          sendAll: sendAll && route.kind === "onchain",
          heldBack: chosen === "lightning" && lightningHeld,
        })
      : null;

  // The fee for what is entered now, asked again whenever the destination, method or amount changes.
  // From ecash the fee is the mint's quote, asked already; lightning and on-chain ask the worker.
  const asked = useFee(fromEcash ? null : route, amountSats, sendAll, problem);
  const { error, setError } = asked;
  const fee = fromEcash
    ? {
        feeSats: fromEcash.quote.feeSats,
        amountSats: fromEcash.quote.amountSats,
        upTo: false,
        highFee: false,
        ecash: fromEcash.custodian.name,
      }
    : asked.fee;

  // A zap only to a contact with an npub, through a service that allows nostr, never for a fixed invoice.
  const zapPossible =
    !!contact?.npub && !request?.invoice && offer?.tag === "payRequest" && offer.allowsNostr;
  const zapping = zapPossible && privacy !== "NotAvailable";
  const shownPrivacy: Privacy = zapping ? privacy : "NotAvailable";
  const payment = usePayment({
    route,
    fee,
    problem,
    offer,
    sendAll,
    amountSats,
    comment,
    contactId: contact?.id ?? null,
    zap: zapping ? privacy : null,
    ecash: fromEcash ? { federationId: fromEcash.custodian.id, quote: fromEcash.quote } : null,
  });
  const { send, sending, result } = payment;
  const live = useView("live");
  const connecting = sending && !!live && waitsForChannel(route, live);

  const hodl = request ? isHodlDestination(request.lightning_address, request.lnurl) : false;
  // An invoice with nothing on lightning but coins on-chain: the way forward is a swap, not only a refusal.
  const offerSwap =
    chosen === "lightning" &&
    problem === "send.error_low_balance" &&
    balances.lightning === 0n &&
    balances.onchain > 0n;
  const paste = async () => {
    const text = await readClipboard();
    if (text === null) setError(t("send.error_clipboard"));
    else setDestination(fromProtocolLink(text.trim()));
  };
  return (
    <main className="screen">
      <BackControl />
      <h1>{t("send.title")}</h1>
      <form
        className="column"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <DestinationField value={destination} onChange={setDestination} onPaste={() => void paste()} />
        {contact ? <p data-testid="send-contact">{t("send.to_contact", { name: contact.name })}</p> : null}
        {request ? <RequestSummary request={request} route={route} offer={offer} /> : null}
        {hodl ? (
          <p className="warning" role="note">
            {t("send.hodl_invoice_warning")}
          </p>
        ) : null}
        <AmountEntry
          id="send-amount"
          label={t("send.amount_sats")}
          value={fixed ?? (sendAll ? null : amount)}
          onChange={(v) => {
            setSendAll(false);
            setAmount(v);
          }}
          frozen={fixed !== null || sendAll}
          methods={methods}
          method={current ? methodKey(current) : chosen}
          onMethod={() => setMethod(nextMethod(methods, chosen))}
          onSubmit={() => void send()}
        />
        {current && fixed === null ? (
          <button
            type="button"
            className="button button-small self-start"
            onClick={() => {
              if (chosen === "onchain") setSendAll(true);
              else setAmount(current.maxAmountSats);
            }}
          >
            {t("send.max")}
          </button>
        ) : null}
        {sendAll ? <p className="hint">{t("send.send_all")}</p> : null}
        {offer && offer.commentAllowed > 0 ? (
          <>
            <label htmlFor="send-comment">{t("send.comment")}</label>
            <input
              id="send-comment"
              value={comment}
              maxLength={offer.commentAllowed}
              onChange={(e) => setComment(e.target.value)}
            />
          </>
        ) : null}
        {/* Only where a zap can be made: a contact with an npub, paid through a service that allows nostr. */}
        {zapPossible ? (
          <button
            type="button"
            className="button button-small"
            aria-label={t("send.privacy_label", { value: t(`send.privacy_${shownPrivacy}`) })}
            onClick={() => setPrivacy(nextPrivacy)}
          >
            {t(`send.privacy_${shownPrivacy}`)}
          </button>
        ) : null}
        {fee ? (
          <p data-testid="send-fee">
            {t(fee.ecash ? "send.fee_line_ecash" : fee.upTo ? "send.fee_line_lightning" : "send.fee_line", {
              amount: fmt.sats(fee.amountSats),
              fee: fmt.sats(fee.feeSats),
              name: fee.ecash ?? "",
            })}{" "}
            <button type="button" className="link-button" onClick={() => setWhyFees(true)}>
              {t("send.why_fees")}
            </button>
          </p>
        ) : null}
        <ErrorBox
          text={
            parsed.problem ??
            lnurlError ??
            (problem
              ? t(problem, { amount: fmt.sats(amountSats), max: fmt.sats(balances.lightning) })
              : null) ??
            (request && !route ? t("send.error_address") : null) ??
            error
          }
        />
        {offerSwap ? (
          <Link href="/swap" className="button">
            {t("send.swap_to_lightning")}
          </Link>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          disabled={!fee || !!problem || sending || (route?.kind === "lnurl" && !offer)}
        >
          {sending ? t("send.sending") : t("send.confirm_send")}
        </button>
        {connecting ? (
          <p className="hint" role="status">
            {t("send.connecting_channel")}
          </p>
        ) : null}
      </form>
      <HighFeeDialog
        open={payment.askHighFee}
        feeSats={fee?.feeSats ?? 0n}
        amountSats={fee?.amountSats ?? 0n}
        onConfirm={() => void send(true)}
        onCancel={payment.cancelHighFee}
      />
      <RepeatDialog
        minutes={payment.askRepeat?.minutes ?? null}
        amountSats={amountSats}
        onConfirm={() => void send(fee?.highFee === true, true)}
        onCancel={payment.cancelRepeat}
      />
      <WhyFeesDialog open={whyFees} onchain={route?.kind === "onchain"} onClose={() => setWhyFees(false)} />
      <ResultDialog
        result={result}
        chat={linked ? { id: linked.id, name: linked.name } : null}
        onClose={() => {
          // A payment that went out leaves no filled form behind: a second one is never one tap away.
          if (result?.ok) navigate("/", { replace: true });
          payment.clearResult();
        }}
      />
    </main>
  );
}
