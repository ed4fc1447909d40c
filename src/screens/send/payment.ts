/**
 * The payment itself: sent over the route chosen once the owner confirms (a high on-chain fee and a repeat
 * of a recent payment are confirmed once more), and what came back, a success action opened when it is one.
 */
import { useState } from "react";
import { CommandFailed } from "../../commands/client";
import type { EcashPaymentPreview, LnurlOffer, LnurlSuccessAction } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { useErrorText } from "../../ui/errors";
import { useWallet } from "../../ui/wallet";
import type { Fee } from "./fee";
import type { Privacy } from "./privacy";
import type { SendRoute } from "./send-rules";

/** What the service gave back for the payment; a LUD-10 secret is shown opened (or why it is not). */
export type ShownAction =
  | Exclude<LnurlSuccessAction, { tag: "aes" }>
  | {
      readonly tag: "secret";
      readonly description: string;
      readonly secret: string | null;
      readonly problem: string | null;
    };

export type SendResult =
  | {
      readonly ok: true;
      readonly pending: boolean;
      readonly amountSats: bigint;
      readonly feeSats: bigint;
      readonly txid: string | null;
      readonly successAction: ShownAction | null;
      /** Paid from ecash: the custodian's name. */
      readonly ecash?: string;
    }
  | { readonly ok: false; readonly reason: string };

/** Asks every 3 s, for a minute at most, whether the zap's receipt arrived (CheckZaps records it). */
const watchZapReceipt = async (client: ReturnType<typeof useWallet>) => {
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 3_000));
    const r = await client.dispatch({ _tag: "CheckZaps" }).catch(() => null);
    if (r && r.confirmed > 0) return;
  }
};

/** What the form holds when the owner confirms. */
export interface PaymentForm {
  readonly route: SendRoute | null;
  readonly fee: Fee | null;
  readonly problem: string | null;
  readonly offer: LnurlOffer | null;
  readonly sendAll: boolean;
  readonly amountSats: bigint;
  readonly comment: string;
  /** The contact paid (its id labels the payment), when it is one. */
  readonly contactId: string | null;
  /** A zap of that contact, with its privacy. */
  readonly zap: Exclude<Privacy, "NotAvailable"> | null;
  /** Paid from ecash at this custodian instead of lightning, with the mint's quote the owner saw. */
  readonly ecash: { readonly federationId: string; readonly quote: EcashPaymentPreview } | null;
}

export const usePayment = (form: PaymentForm) => {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<SendResult | null>(null);
  const [askHighFee, setAskHighFee] = useState(false);
  /** The worker's words when this address was paid this amount minutes ago: confirm once more. */
  const [askRepeat, setAskRepeat] = useState<{ minutes: string } | null>(null);

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
    const { route, fee, problem, offer, sendAll, amountSats, contactId, zap } = form;
    if (!route || !fee || problem || (route.kind === "lnurl" && !offer)) return;
    if (route.kind === "onchain" && fee.highFee && !highFeeConfirmed) {
      setAskHighFee(true);
      return;
    }
    setAskHighFee(false);
    setAskRepeat(null);
    setSending(true);
    try {
      const labels: string[] = contactId ? [contactId] : [];
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
      if (form.ecash) {
        // The mint pays exactly the quote shown: a changed amount or a higher fee is refused.
        const { federationId, quote } = form.ecash;
        const r = await client.dispatch({
          _tag: "PayInvoiceFromEcash",
          federationId,
          quoteId: quote.quoteId,
          amountSats: quote.amountSats,
          feeSats: quote.feeSats,
        });
        setResult({
          ok: true,
          pending: r.status === "pending",
          txid: null,
          amountSats: r.amountSats,
          feeSats: r.feeSats,
          successAction: null,
          ecash: form.fee?.ecash ?? "",
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
                  comment: form.comment,
                  fingerprint: offer?.fingerprint ?? "",
                  zap: zap && contactId ? { contactId, privacy: zap } : null,
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
      if (zap) void watchZapReceipt(client);
    } catch (err) {
      if (err instanceof CommandFailed && err._tag === "RepeatNeedsConfirmation")
        setAskRepeat({ minutes: err.values?.minutes ?? "1" });
      else setResult({ ok: false, reason: failure(err, route.kind) });
    } finally {
      setSending(false);
    }
  };

  return {
    send,
    sending,
    result,
    clearResult: () => setResult(null),
    askHighFee,
    cancelHighFee: () => setAskHighFee(false),
    askRepeat,
    cancelRepeat: () => setAskRepeat(null),
  };
};
