import { ClipboardPaste, ScanLine } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import type { LnurlOffer, LnurlSuccessAction } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { AmountEntry } from "../../ui/AmountEntry";
import { BackControl } from "../../ui/BackControl";
import { useWalletConfig } from "../../ui/config";
import { Dialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { truncateMiddle } from "../../ui/format";
import { useFormat } from "../../ui/useFormat";
import {
  fromProtocolLink,
  isHodlDestination,
  type ParsedPaymentRequest,
  parsePaymentRequest,
} from "../../ui/incoming";
import type { PaymentMethod } from "../../ui/amount-entry";
import { nextMethod } from "../../ui/amount-entry";
import { readClipboard } from "../../ui/useIncoming";
import { useView, useWallet } from "../../ui/wallet";
import { amountProblem, fixedAmount, methodsFor, routeFor, type SendRoute } from "./send-rules";
import { CommandFailed } from "../../commands/client";

/** What the service gave back for the payment; a LUD-10 secret is shown opened (or why it is not). */
type ShownAction =
  | Exclude<LnurlSuccessAction, { tag: "aes" }>
  | {
      readonly tag: "secret";
      readonly description: string;
      readonly secret: string | null;
      readonly problem: string | null;
    };

type Result =
  | {
      readonly ok: true;
      readonly pending: boolean;
      readonly amountSats: bigint;
      readonly feeSats: bigint;
      readonly txid: string | null;
      readonly successAction: ShownAction | null;
    }
  | { readonly ok: false; readonly reason: string };

type Fee = {
  readonly feeSats: bigint;
  readonly amountSats: bigint;
  readonly upTo: boolean;
  /** The worker asks a second confirmation before paying this fee. */
  readonly highFee: boolean;
};

/**
 * Send (spec 1 §5): the destination (from a scan, a link or typed), the amount with the method to pay
 * by, the fee before confirming, then the result. Every rule is decided in send-rules and the worker.
 */
/** The send privacy control's steps (spec 1 send), then an anonymous zap (a throwaway key). */
const PRIVACY_STEPS = ["NotAvailable", "Private", "Public", "Anonymous"] as const;
type Privacy = (typeof PRIVACY_STEPS)[number];
const nextPrivacy = (p: Privacy): Privacy =>
  PRIVACY_STEPS[(PRIVACY_STEPS.indexOf(p) + 1) % PRIVACY_STEPS.length] ?? "NotAvailable";

/** Asks every 3 s, for a minute at most, whether the zap's receipt arrived (CheckZaps records it). */
const watchZapReceipt = async (client: ReturnType<typeof useWallet>) => {
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 3_000));
    const r = await client.dispatch({ _tag: "CheckZaps" }).catch(() => null);
    if (r && r.confirmed > 0) return;
  }
};

export function Send() {
  const { t } = useI18n();
  const fmt = useFormat();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const { network } = useWalletConfig();
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
  const [offer, setOffer] = useState<LnurlOffer | null>(null);
  const [fee, setFee] = useState<Fee | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Why the LNURL could not be read: shown until the destination changes, whatever amount is typed. */
  const [lnurlError, setLnurlError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [whyFees, setWhyFees] = useState(false);
  const [askHighFee, setAskHighFee] = useState(false);
  /** The worker's words when this address was paid this amount minutes ago: confirm once more. */
  const [askRepeat, setAskRepeat] = useState<{ minutes: string } | null>(null);

  const parsed = useMemo((): { request: ParsedPaymentRequest | null; problem: string | null } => {
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
  const request = parsed.request;
  const balances = {
    lightning: balance?.lightning ?? 0n,
    onchain: (balance?.confirmed ?? 0n) + (balance?.unconfirmed ?? 0n),
  };
  const methods = request ? methodsFor(request, balances) : [];
  const chosen = methods.some((m) => m.method === method) ? method : (methods[0]?.method ?? "onchain");
  const route: SendRoute | null = request ? routeFor(request, chosen) : null;
  const lnurlRange = offer && offer.tag === "payRequest" ? { min: offer.minSats, max: offer.maxSats } : null;
  const fixed = request ? fixedAmount(request, route, lnurlRange) : null;
  const amountSats = fixed ?? amount ?? 0n;

  // An LNURL is read from its service: a withdraw link goes to redeem, a pay link gives its limits.
  const lnurl = route?.kind === "lnurl" ? route.lnurl : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    setOffer(null);
    setLnurlError(null);
    if (!lnurl) return;
    let current = true;
    client
      .dispatch({ _tag: "DecodeLnurl", lnurl })
      .then((o) => {
        if (!current) return;
        if (o.tag === "withdrawRequest") navigate(`/redeem?lnurl=${encodeURIComponent(lnurl)}`);
        else setOffer(o);
      })
      .catch((e) => current && setLnurlError(errorText(e)));
    return () => {
      current = false;
    };
  }, [lnurl, client, navigate]);

  const problem =
    request && route
      ? amountProblem({
          amountSats,
          route,
          balance: chosen === "lightning" ? balances.lightning : balances.onchain,
          invoiceAmount: route.kind === "invoice" ? request.amount_sats : null,
          expiresAt: null,
          nowSecs: Math.floor(Date.now() / 1000),
          lnurlRange,
          sendAll: sendAll && route.kind === "onchain",
        })
      : null;

  // The fee for what is entered now, asked again whenever the destination, method or amount changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    setFee(null);
    setError(null);
    if (!route || problem !== null) return;
    let current = true;
    const ask: () => Promise<Fee> =
      route.kind === "onchain"
        ? sendAll
          ? () =>
              client
                .dispatch({ _tag: "EstimateSweepTxFee", address: route.address })
                .then((r) => ({ ...r, upTo: false }))
          : () =>
              client
                .dispatch({ _tag: "EstimateTxFee", address: route.address, amountSats })
                .then((r) => ({ feeSats: r.feeSats, amountSats, upTo: false, highFee: r.highFee }))
        : () =>
            client
              .dispatch({ _tag: "EstimateLightningFee", amountSats })
              .then((r) => ({ feeSats: r.maxFeeSats, amountSats, upTo: true, highFee: false }));
    const timer = setTimeout(() => {
      ask()
        .then((f) => current && setFee(f))
        .catch((e) => current && setError(errorText(e)));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [route?.kind, route && "address" in route ? route.address : null, amountSats, sendAll, problem, client]);

  const failure = (e: unknown, kind: SendRoute["kind"]): string => {
    if (kind === "lnurl" && e instanceof CommandFailed && e._tag === "PaymentFailed" && !e.key)
      return t("send.error_LNURL");
    return errorText(e);
  };

  /** An `aes` action opened by the worker with the payment's preimage, once the payment succeeded. */
  const shown = async (
    action: LnurlSuccessAction | null,
    paid: { status: "succeeded" | "pending"; paymentHash: string },
  ): Promise<ShownAction | null> => {
    if (action?.tag !== "aes") return action;
    const { description, ciphertext, iv } = action;
    if (paid.status !== "succeeded") return { tag: "secret", description, secret: null, problem: null };
    return client.dispatch({ _tag: "OpenSuccessAction", paymentHash: paid.paymentHash, ciphertext, iv }).then(
      (r) => ({ tag: "secret", description, secret: r.message, problem: null }) as const,
      (e: unknown) => ({ tag: "secret", description, secret: null, problem: errorText(e) }) as const,
    );
  };

  /**
   * Sends; a high on-chain fee first asks a second confirmation, given by `highFeeConfirmed`, and paying an
   * address the same amount again within minutes asks once more (the worker decides), `repeatConfirmed`.
   */
  const send = async (highFeeConfirmed = false, repeatConfirmed = false) => {
    if (!route || !fee || problem || (route.kind === "lnurl" && !offer)) return;
    if (route.kind === "onchain" && fee.highFee && !highFeeConfirmed) {
      setAskHighFee(true);
      return;
    }
    setAskHighFee(false);
    setAskRepeat(null);
    setSending(true);
    try {
      const labels: string[] = contact ? [contact.id] : [];
      // The worker pays at most the fee shown, and a high one only after the second confirmation.
      const consent = { maxFeeSats: fee.feeSats, highFeeConfirmed };
      if (route.kind === "onchain") {
        const r = sendAll
          ? await client.dispatch({ _tag: "SweepWallet", address: route.address, labels, ...consent })
          : {
              ...(await client.dispatch({
                _tag: "SendToAddress",
                address: route.address,
                amountSats,
                labels,
                ...consent,
                ...(repeatConfirmed ? { repeatConfirmed } : {}),
              })),
              amountSats,
            };
        setResult({
          ok: true,
          pending: false,
          txid: r.txid,
          feeSats: r.feeSats,
          amountSats: r.amountSats,
          successAction: null,
        });
        return;
      }
      let successAction: LnurlSuccessAction | null = null;
      const paid =
        route.kind === "keysend"
          ? await client.dispatch({ _tag: "Keysend", pubkey: route.pubkey, amountSats, labels })
          : route.kind === "invoice"
            ? await client.dispatch({
                _tag: "PayInvoice",
                bolt11: route.bolt11,
                amountSats,
                labels,
              })
            : await client
                .dispatch({
                  _tag: "LnurlPayInvoice",
                  lnurl: route.lnurl,
                  amountSats,
                  comment,
                  fingerprint: offer?.fingerprint ?? "",
                  zap: zapping && contact ? { contactId: contact.id, privacy } : null,
                })
                .then((r) => {
                  successAction = r.successAction;
                  return client.dispatch({ _tag: "PayInvoice", bolt11: r.bolt11, amountSats, labels });
                });
      setResult({
        ok: true,
        pending: paid.status === "pending",
        txid: null,
        amountSats: paid.amountSats,
        feeSats: paid.feeSats,
        successAction: await shown(successAction, paid),
      });
      // A zap shows as one once the service's receipt is out and matches: look for it for a while.
      if (zapping) void watchZapReceipt(client);
    } catch (err) {
      if (err instanceof CommandFailed && err._tag === "RepeatNeedsConfirmation")
        setAskRepeat({ minutes: err.values?.minutes ?? "1" });
      else setResult({ ok: false, reason: failure(err, route.kind) });
    } finally {
      setSending(false);
    }
  };

  // A zap only to a contact with an npub, through a service that allows nostr, never for a fixed invoice.
  const zapPossible =
    !!contact?.npub && !request?.invoice && offer?.tag === "payRequest" && offer.allowsNostr;
  const zapping = zapPossible && privacy !== "NotAvailable";
  const shownPrivacy: Privacy = zapping ? privacy : "NotAvailable";

  const hodl = request ? isHodlDestination(request.lightning_address, request.lnurl) : false;
  const current = methods.find((m) => m.method === chosen);
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
        <label htmlFor="send-address">{t("send.destination")}</label>
        <div className="input-with-actions">
          <input
            id="send-address"
            autoComplete="off"
            spellCheck={false}
            value={destination}
            onChange={(e) => setDestination(e.target.value)}
          />
          <button type="button" className="button button-small" onClick={() => void paste()}>
            <ClipboardPaste aria-hidden="true" size={18} />
            {t("send.paste")}
          </button>
          <Link href="/scanner" className="button button-small">
            <ScanLine aria-hidden="true" size={18} />
            {t("send.scan")}
          </Link>
        </div>
        {contact ? <p data-testid="send-contact">{t("send.to_contact", { name: contact.name })}</p> : null}
        {request ? (
          <section aria-label={t("send.request")} className="column" data-testid="send-request">
            <p>
              {t(`send.kind_${route?.kind ?? "onchain"}`)}:{" "}
              <code
                title={
                  request.lightning_address ??
                  request.address ??
                  request.invoice ??
                  request.node_pubkey ??
                  request.lnurl ??
                  ""
                }
              >
                {request.lightning_address ??
                  truncateMiddle(
                    request.address ?? request.invoice ?? request.node_pubkey ?? offer?.domain ?? "",
                  )}
              </code>
            </p>
            {request.amount_sats !== null ? (
              <p>{t("send.request_amount", { amount: fmt.sats(request.amount_sats) })}</p>
            ) : null}
            {request.memo ? <p>{request.memo}</p> : null}
            {request.invoice && request.amount_sats !== null && (balance?.federation ?? 0n) > 0n ? (
              <Link
                href={`/settings/federations?pay=${encodeURIComponent(request.invoice)}`}
                className="link"
              >
                {t("send.pay_from_ecash")}
              </Link>
            ) : null}
            {!request.memo && offer?.description ? (
              <blockquote className="service-words">
                <p>{t("lnurl.service_says", { domain: offer.domain, text: offer.description })}</p>
              </blockquote>
            ) : null}
          </section>
        ) : null}
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
          method={chosen}
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
        {contact ? (
          <button
            type="button"
            className="button button-small"
            disabled={!zapPossible}
            aria-label={t("send.privacy_label", { value: t(`send.privacy_${shownPrivacy}`) })}
            onClick={() => setPrivacy(nextPrivacy)}
          >
            {t(`send.privacy_${shownPrivacy}`)}
          </button>
        ) : null}
        {fee ? (
          <p data-testid="send-fee">
            {t(fee.upTo ? "send.fee_line_lightning" : "send.fee_line", {
              amount: fmt.sats(fee.amountSats),
              fee: fmt.sats(fee.feeSats),
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
            (problem ? t(problem, { amount: fmt.sats(amountSats) }) : null) ??
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
      </form>
      <Dialog open={askHighFee} title={t("send.high_fee_title")} onClose={() => setAskHighFee(false)}>
        <div className="column">
          <p role="alert">
            {t("send.high_fee_text", {
              fee: fmt.sats(fee?.feeSats ?? 0n),
              amount: fmt.sats(fee?.amountSats ?? 0n),
            })}
          </p>
          <button type="button" className="button button-primary" onClick={() => void send(true)}>
            {t("send.high_fee_confirm", { fee: fmt.sats(fee?.feeSats ?? 0n) })}
          </button>
          <button type="button" className="button" onClick={() => setAskHighFee(false)}>
            {t("common.cancel")}
          </button>
        </div>
      </Dialog>
      <Dialog open={askRepeat !== null} title={t("send.repeat_title")} onClose={() => setAskRepeat(null)}>
        <div className="column">
          <p role="alert">
            {t("send.repeat_text", {
              amount: fmt.sats(amountSats),
              minutes: askRepeat?.minutes ?? "1",
            })}
          </p>
          <button type="button" className="button" onClick={() => setAskRepeat(null)}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void send(fee?.highFee === true, true)}
          >
            {t("send.repeat_confirm")}
          </button>
        </div>
      </Dialog>
      <Dialog open={whyFees} title={t("send.why_fees")} onClose={() => setWhyFees(false)}>
        <p>{t(route?.kind === "onchain" ? "send.why_fees_onchain" : "send.why_fees_lightning")}</p>
      </Dialog>
      <Dialog
        open={result !== null}
        title={
          result?.ok
            ? result.pending
              ? t("send.pending_title")
              : t("send.sent_title")
            : t("send.failed_title")
        }
        onClose={() => {
          // A payment that went out leaves no filled form behind: a second one is never one tap away.
          if (result?.ok) navigate("/", { replace: true });
          setResult(null);
        }}
      >
        {result?.ok ? (
          <div className="column">
            <p>
              {result.pending
                ? t("send.pending_text")
                : t(result.txid ? "send.sent_text" : "send.sent_text_lightning", {
                    amount: fmt.sats(result.amountSats),
                    fee: fmt.sats(result.feeSats),
                  })}
            </p>
            {result.txid ? <code title={result.txid}>{truncateMiddle(result.txid)}</code> : null}
            {result.successAction?.tag === "message" ? (
              <p role="status">{result.successAction.message}</p>
            ) : null}
            {result.successAction?.tag === "secret" ? (
              <div role="status">
                <p>{result.successAction.description}</p>
                {result.successAction.secret !== null ? <code>{result.successAction.secret}</code> : null}
                {result.successAction.problem !== null ? (
                  <p className="error-box">{result.successAction.problem}</p>
                ) : null}
              </div>
            ) : null}
            {result.successAction?.tag === "url" ? (
              <p>
                {result.successAction.description}{" "}
                <a href={result.successAction.url} target="_blank" rel="noreferrer noopener">
                  {t("send.open_link")}
                </a>
              </p>
            ) : null}
            <Link href="/" className="button button-primary">
              {t("common.home")}
            </Link>
          </div>
        ) : (
          <p className="error-box">{result?.reason}</p>
        )}
      </Dialog>
    </main>
  );
}
