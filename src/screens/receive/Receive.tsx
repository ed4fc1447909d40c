import { useErrorText } from "../../ui/errors";
import { ErrorBox } from "../../ui/errors";
import { useState } from "react";
import { normaliseSatsInput } from "../../ui/money";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { CopyButton } from "../../ui/CopyButton";
import { Qr } from "../../ui/Qr";
import { truncateMiddle } from "../../ui/format";
import { useWallet } from "../../ui/wallet";

type Shown = { readonly uri: string; readonly address: string };

/** Receive on-chain: an amount (optional) and a note, then the address or BIP21 QR to share. */
export function Receive() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const labels = note.trim() ? [note.trim()] : [];
      const r = await client.dispatch({
        _tag: "CreateBip21",
        amountSats: amount ? BigInt(amount) : null,
        labels,
      });
      setShown(r);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (shown) {
    return (
      <main className="screen center">
        <BackControl />
        <h1>{t("receive.title")}</h1>
        <Qr value={shown.uri} size={256} label={t("receive.qr_label")} />
        <p>
          <code data-testid="receive-address" title={shown.address}>
            {truncateMiddle(shown.address)}
          </code>
        </p>
        <div className="row">
          <CopyButton text={shown.address} label={t("receive.copy_address")} />
          {shown.uri !== shown.address ? <CopyButton text={shown.uri} label={t("receive.copy_uri")} /> : null}
        </div>
        <button type="button" className="button" onClick={() => setShown(null)}>
          {t("receive.edit")}
        </button>
      </main>
    );
  }

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("receive.title")}</h1>
      <form className="column" onSubmit={submit}>
        <label htmlFor="receive-amount">{t("receive.amount_sats")}</label>
        <input
          id="receive-amount"
          inputMode="numeric"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(normaliseSatsInput(e.target.value))}
          placeholder="0"
        />
        <label htmlFor="receive-note">{t("receive.note")}</label>
        <input id="receive-note" value={note} maxLength={255} onChange={(e) => setNote(e.target.value)} />
        <p className="hint">{t("receive.onchain_hint")}</p>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("receive.show_address")}
        </button>
      </form>
    </main>
  );
}
