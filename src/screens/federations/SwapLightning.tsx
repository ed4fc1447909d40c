import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { CommandFailed } from "../../commands/client";
import type { EcashPaymentPreview } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { Screen } from "../../ui/Screen";
import { NoticeDialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { formatSats } from "../../ui/format";
import { useView, useWallet } from "../../ui/wallet";
import { AmountField } from "./AmountField";
import { CustodianSelect, QuotePreview } from "./QuotePreview";

type Result =
  | { ok: true; amountSats: bigint; feeSats: bigint; pending: boolean }
  | { ok: false; message: string };

/**
 * /swaplightning (spec 2): ecash → the wallet's own lightning. Start (custodian and amount), preview (the
 * node's invoice and what paying it from ecash costs; edit returns to start), confirm, result.
 */
export function SwapLightning() {
  const { t, intl } = useI18n();
  const client = useWallet();
  const [, navigate] = useLocation();
  const federations = useView("federations") ?? [];
  const preset = new URLSearchParams(useSearch()).get("from");
  const [from, setFrom] = useState(preset ?? federations.find((f) => f.balance > 0n)?.federation_id ?? "");
  const [amount, setAmount] = useState("");
  const [preview, setPreview] = useState<EcashPaymentPreview | null>(null);
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<Result | null>(null);
  const source = federations.find((f) => f.federation_id === from);

  // 'Satoshi amount is invalid' is shown as too small (spec 2), told by its key.
  const tooSmall = (e: unknown) =>
    e instanceof CommandFailed && (e.key === "errors.invalid_amount" || e.key === "swap_lightning.too_small");
  const start = () =>
    run(
      async () =>
        setPreview(
          await client.dispatch({
            _tag: "PrepareSwapToLightning",
            federationId: from,
            amountSats: BigInt(amount || "0"),
          }),
        ),
      { explain: (e, text) => (tooSmall(e) ? t("swap_lightning.too_small") : text) },
    );
  // A failed payment is told in the result dialog.
  const failed = (_e: unknown, message: string) => {
    setResult({ ok: false, message });
    return null;
  };
  const confirm = () => {
    if (!preview) return;
    return run(
      async () => {
        const r = await client.dispatch({
          _tag: "PayInvoiceFromEcash",
          federationId: from,
          quoteId: preview.quoteId,
          amountSats: preview.amountSats,
          feeSats: preview.feeSats,
        });
        setResult({
          ok: true,
          amountSats: r.amountSats,
          feeSats: r.feeSats,
          pending: r.status === "pending",
        });
      },
      { explain: failed },
    );
  };

  return (
    <Screen title={t("swap_lightning.title")} caption={t("swap_lightning.caption")}>
      {preview ? (
        <QuotePreview
          title={t("swap_lightning.preview")}
          busy={busy}
          editWhileBusy
          editLabel={t("swap_lightning.edit")}
          confirmLabel={t("swap_lightning.confirm")}
          onEdit={() => setPreview(null)}
          onConfirm={confirm}
        >
          <p>
            {t("swap_lightning.preview_amount", {
              amount: formatSats(intl, preview.amountSats),
              fee: formatSats(intl, preview.feeSats),
              name: source?.federation_name ?? from,
            })}
          </p>
          {preview.channelFeeSats ? (
            <p>{t("swap_lightning.channel_fee", { fee: formatSats(intl, preview.channelFeeSats) })}</p>
          ) : null}
          <label htmlFor="swap-invoice">{t("federations.invoice")}</label>
          <textarea id="swap-invoice" readOnly rows={3} value={preview.bolt11} />
        </QuotePreview>
      ) : (
        <Form onSubmit={start}>
          <CustodianSelect
            id="swap-from"
            label={t("swap_lightning.from")}
            value={from}
            onChange={setFrom}
            custodians={federations}
          />
          <AmountField id="swap-ln-amount" value={amount} onChange={setAmount} max={source?.balance ?? 0n} />
          <ErrorBox text={error} />
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || amount === "" || from === ""}
          >
            {t("swap_lightning.start")}
          </button>
        </Form>
      )}
      <NoticeDialog
        open={result !== null}
        title={result?.ok ? t("swap.success_title") : t("swap.failure_title")}
        message={
          result?.ok
            ? result.pending
              ? t("federations.pay_pending")
              : t("swap_lightning.done", {
                  amount: formatSats(intl, result.amountSats),
                  fee: formatSats(intl, result.feeSats),
                })
            : result?.message
        }
        actionLabel={t("common.home")}
        onClose={() => setResult(null)}
        onAction={() => navigate("/")}
      />
    </Screen>
  );
}
