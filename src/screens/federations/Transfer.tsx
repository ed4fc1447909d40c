import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import type { EcashPaymentPreview } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { NoticeDialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { formatSats } from "../../ui/format";
import { useView, useWallet } from "../../ui/wallet";
import { AmountField } from "./AmountField";
import { CustodianSelect, QuotePreview } from "./QuotePreview";

/**
 * /transfer?from= (spec 2): from and to custodians with their balances; the full amount sweeps. The fee is
 * shown before anything moves: the quote (what arrives, the most the source keeps in fees), then Confirm.
 */
export function Transfer() {
  const { t, intl } = useI18n();
  const client = useWallet();
  const [, navigate] = useLocation();
  const federations = useView("federations") ?? [];
  const from = new URLSearchParams(useSearch()).get("from") ?? "";
  const source = federations.find((f) => f.federation_id === from);
  const targets = federations.filter((f) => f.federation_id !== from);
  const [to, setTo] = useState(targets[0]?.federation_id ?? "");
  const [amount, setAmount] = useState("");
  const [preview, setPreview] = useState<EcashPaymentPreview | null>(null);
  const { busy, error, run } = useAction();
  const [done, setDone] = useState<string | null>(null);

  // First the quote (what arrives and the most the source keeps in fees), then the owner confirms it.
  const quote = () =>
    run(async () =>
      setPreview(
        await client.dispatch({ _tag: "QuoteEcashTransfer", from, to, amountSats: BigInt(amount || "0") }),
      ),
    );
  // A failed transfer returns to the start, with the failure's words.
  const backToStart = (_e: unknown, text: string) => {
    setPreview(null);
    return text;
  };
  const confirm = () => {
    if (!preview) return;
    return run(
      async () => {
        const r = await client.dispatch({
          _tag: "TransferEcash",
          from,
          to,
          quoteId: preview.quoteId,
          amountSats: preview.amountSats,
          feeSats: preview.feeSats,
        });
        setDone(
          r.status === "paid"
            ? t("transfer.done", { amount: formatSats(intl, r.amountSats), fee: formatSats(intl, r.feeSats) })
            : t("federations.pay_pending"),
        );
      },
      { explain: backToStart },
    );
  };
  const destination = federations.find((f) => f.federation_id === to);

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("transfer.title")}</h1>
      <section className="card" aria-label={t("transfer.from")}>
        <h2>{t("transfer.from")}</h2>
        {source ? (
          <p>
            {source.federation_name}: {formatSats(intl, source.balance)} {t("common.esats")}
          </p>
        ) : (
          <p role="alert">{t("errors.no_federation")}</p>
        )}
      </section>
      {preview ? (
        <QuotePreview
          title={t("transfer.preview")}
          busy={busy}
          editLabel={t("transfer.edit")}
          confirmLabel={t("transfer.confirm")}
          onEdit={() => setPreview(null)}
          onConfirm={confirm}
        >
          <p>
            {t("transfer.preview_amount", {
              amount: formatSats(intl, preview.amountSats),
              fee: formatSats(intl, preview.feeSats),
              name: destination?.federation_name ?? to,
            })}
          </p>
        </QuotePreview>
      ) : (
        <Form onSubmit={quote}>
          <CustodianSelect
            id="transfer-to"
            label={t("transfer.to")}
            value={to}
            onChange={setTo}
            custodians={targets}
          />
          <AmountField id="transfer-amount" value={amount} onChange={setAmount} max={source?.balance ?? 0n} />
          <ErrorBox text={error} />
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || !source || to === "" || amount === ""}
          >
            {t("transfer.quote")}
          </button>
        </Form>
      )}
      <NoticeDialog
        open={done !== null}
        title={t("transfer.title")}
        message={done}
        actionLabel={t("common.continue")}
        onClose={() => navigate("/settings/federations")}
      />
    </main>
  );
}
