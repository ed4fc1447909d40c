import { type ReactNode, useEffect, useState } from "react";
import { Link } from "wouter";
import type { EcashPaymentPreview } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import type { FederationView } from "../../projections";
import { CopyButton } from "../../ui/CopyButton";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { formatDateTime, formatSats } from "../../ui/format";
import { pollOneAtATime } from "../../ui/poll";
import { useWallet } from "../../ui/wallet";
import { AmountField } from "./AmountField";

type Panel = "none" | "receive" | "pay" | "token";

/** One custodian: who holds the ecash, its messages and end date, and what the owner can do with it. */
export function FederationCard({ federation: f, pay }: { federation: FederationView; pay?: string }) {
  const { t, intl } = useI18n();
  const client = useWallet();
  const [panel, setPanel] = useState<Panel>(pay ? "pay" : "none");
  const [confirmRemove, setConfirmRemove] = useState(false);
  const { busy, error, run } = useAction();
  const remove = () => {
    setConfirmRemove(false);
    void run(async () => {
      await client.dispatch({ _tag: "RemoveFederation", federationId: f.federation_id });
    });
  };
  const recommend = () =>
    run(async () => {
      await client.dispatch({
        _tag: "RecommendFederation",
        federationId: f.federation_id,
        recommend: !f.recommended,
      });
    });
  const panels: readonly { id: Exclude<Panel, "none">; label: string }[] = [
    { id: "receive", label: t("federations.receive") },
    { id: "pay", label: t("federations.pay") },
    { id: "token", label: t("federations.send_token") },
  ];
  return (
    <article className="card column" aria-label={f.federation_name}>
      <div className="federation-head">
        <h2>{f.federation_name}</h2>
        <strong data-testid="federation-balance">
          {formatSats(intl, f.balance)} {t("common.esats")}
        </strong>
      </div>
      <p className="hint">{t("federations.custody", { name: f.federation_name })}</p>
      {f.welcome_message ? <p>{f.welcome_message}</p> : null}
      {f.motd ? (
        <p role="note" data-testid="federation-motd">
          {f.motd}
        </p>
      ) : null}
      {f.federation_expiry_timestamp ? (
        <p role="note">
          {t("federations.expires", {
            date: formatDateTime(intl, f.federation_expiry_timestamp * 1000),
          })}
        </p>
      ) : null}
      <p className="hint break">{f.federation_id}</p>
      {f.recommended ? (
        <p role="status">{t("federations.recommended", { name: f.federation_name })}</p>
      ) : null}
      {/* Four ways to use the ecash, in even columns; recommending and leaving apart, at the card's foot. */}
      <div className="federation-actions">
        {panels.map((p) => (
          <button
            key={p.id}
            type="button"
            className="button button-small"
            aria-expanded={panel === p.id}
            onClick={() => setPanel(panel === p.id ? "none" : p.id)}
          >
            {p.label}
          </button>
        ))}
        <Link href={`/transfer?from=${encodeURIComponent(f.federation_id)}`} className="button button-small">
          {t("federations.transfer")}
        </Link>
      </div>
      <div className="card-footer">
        <button type="button" className="link-button" disabled={busy} onClick={() => void recommend()}>
          {f.recommended ? t("federations.unrecommend") : t("federations.recommend")}
        </button>
        <button type="button" className="link-button link-danger" onClick={() => setConfirmRemove(true)}>
          {t("federations.remove")}
        </button>
      </div>
      <ErrorBox text={error} />
      {panel === "receive" ? <ReceivePanel federation={f} /> : null}
      {panel === "pay" ? <PayPanel federation={f} initial={pay ?? ""} /> : null}
      {panel === "token" ? <TokenPanel federation={f} /> : null}
      <ConfirmDialog
        open={confirmRemove}
        title={t("federations.remove_title", { name: f.federation_name })}
        message={t("federations.remove_confirm")}
        confirmLabel={t("federations.remove")}
        danger
        onConfirm={remove}
        onCancel={() => setConfirmRemove(false)}
      />
    </article>
  );
}

/** An amount and one button: the receive and token panels' form, running `submit` with the sats typed. */
function AmountForm({
  id,
  label,
  submit,
}: {
  id: string;
  label: string;
  submit: (amountSats: bigint) => Promise<void>;
}) {
  const [amount, setAmount] = useState("");
  const { busy, error, run } = useAction();
  return (
    <Form onSubmit={() => run(() => submit(BigInt(amount || "0")))}>
      <AmountField id={id} value={amount} onChange={setAmount} />
      <ErrorBox text={error} />
      <button type="submit" className="button button-primary" disabled={busy || amount === ""}>
        {label}
      </button>
    </Form>
  );
}

/** An amount → the custodian's invoice; the screen asks the worker 2 s after each answer whether it was paid. */
function ReceivePanel({ federation: f }: { federation: FederationView }) {
  const { t, intl } = useI18n();
  const client = useWallet();
  const [invoice, setInvoice] = useState<string | null>(null);
  const [received, setReceived] = useState<bigint | null>(null);
  useEffect(() => {
    if (!invoice || received !== null) return;
    // One question at a time: a silent mint never gets a pile of them.
    return pollOneAtATime(async () => {
      const r = await client.dispatch({ _tag: "CheckEcash", federationId: f.federation_id });
      if (r.receivedSats > 0n) setReceived(r.receivedSats);
    }, 2000);
  }, [client, invoice, received, f.federation_id]);
  if (received !== null)
    return <p role="status">{t("federations.received", { amount: formatSats(intl, received) })}</p>;
  if (invoice)
    return (
      <Shown id={`invoice-${f.federation_id}`} label={t("federations.invoice")} text={invoice}>
        <p role="status">{t("federations.waiting")}</p>
      </Shown>
    );
  return (
    <AmountForm
      id={`receive-${f.federation_id}`}
      label={t("federations.create_invoice")}
      submit={async (amountSats) => {
        const r = await client.dispatch({ _tag: "ReceiveEcash", federationId: f.federation_id, amountSats });
        setInvoice(r.bolt11);
      }}
    />
  );
}

/** An invoice → what paying it from this custodian costs → pay exactly that. */
function PayPanel({ federation: f, initial }: { federation: FederationView; initial: string }) {
  const { t, intl } = useI18n();
  const client = useWallet();
  const [bolt11, setBolt11] = useState(initial);
  const [preview, setPreview] = useState<EcashPaymentPreview | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const check = () =>
    run(async () => {
      setPreview(await client.dispatch({ _tag: "EcashMeltQuote", federationId: f.federation_id, bolt11 }));
    });
  const pay = () =>
    run(async () => {
      if (!preview) return;
      const r = await client.dispatch({
        _tag: "PayInvoiceFromEcash",
        federationId: f.federation_id,
        quoteId: preview.quoteId,
        amountSats: preview.amountSats,
        feeSats: preview.feeSats,
      });
      setDone(
        r.status === "paid"
          ? t("federations.paid", {
              amount: formatSats(intl, r.amountSats),
              fee: formatSats(intl, r.feeSats),
            })
          : t("federations.pay_pending"),
      );
    });
  if (done) return <p role="status">{done}</p>;
  return (
    <div className="column">
      <label htmlFor={`pay-${f.federation_id}`}>{t("federations.invoice_to_pay")}</label>
      <textarea
        id={`pay-${f.federation_id}`}
        value={bolt11}
        rows={3}
        spellCheck={false}
        onChange={(e) => {
          setBolt11(e.target.value.trim());
          setPreview(null);
        }}
      />
      {preview ? (
        <p>
          {t("federations.pay_preview", {
            amount: formatSats(intl, preview.amountSats),
            fee: formatSats(intl, preview.feeSats),
          })}
        </p>
      ) : null}
      <ErrorBox text={error} />
      {preview ? (
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void pay()}>
          {t("federations.pay_confirm")}
        </button>
      ) : (
        <button
          type="button"
          className="button"
          disabled={busy || bolt11 === ""}
          onClick={() => void check()}
        >
          {t("federations.pay_check")}
        </button>
      )}
    </div>
  );
}

/** An amount → a cashuB token to hand to someone (made offline when the coins make it exactly). */
function TokenPanel({ federation: f }: { federation: FederationView }) {
  const { t } = useI18n();
  const client = useWallet();
  const [token, setToken] = useState<string | null>(null);
  if (token) return <Shown id={`token-${f.federation_id}`} label={t("federations.token")} text={token} />;
  return (
    <AmountForm
      id={`send-token-${f.federation_id}`}
      label={t("federations.make_token")}
      submit={async (amountSats) => {
        const r = await client.dispatch({
          _tag: "SendEcashToken",
          federationId: f.federation_id,
          amountSats,
        });
        setToken(r.token);
      }}
    />
  );
}

/** What a panel made (an invoice, a token), to read and copy. */
function Shown({
  id,
  label,
  text,
  children,
}: {
  id: string;
  label: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div className="column">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} readOnly value={text} rows={4} />
      <CopyButton text={text} />
      {children}
    </div>
  );
}
