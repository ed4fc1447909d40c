import { ErrorBox, useErrorText } from "../../ui/errors";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { Dialog } from "../../ui/Dialog";
import { groupSats, truncateMiddle } from "../../ui/format";
import { normaliseSatsInput } from "../../ui/money";
import { useWallet } from "../../ui/wallet";

type Result =
  | { readonly ok: true; readonly txid: string; readonly feeSats: bigint; readonly amountSats: bigint }
  | { readonly ok: false; readonly reason: string };

/**
 * Send on-chain: destination and amount (or everything), the fee shown before confirming, then the
 * result. The fee and every rule come from the worker's handlers; this screen only asks and shows.
 */
export function Send() {
  const { t, lang } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [address, setAddress] = useState("");
  const [amount, setAmount] = useState("");
  const [sendAll, setSendAll] = useState(false);
  const [fee, setFee] = useState<{ feeSats: bigint; amountSats: bigint } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<"form" | "sending">("form");
  const [result, setResult] = useState<Result | null>(null);

  // The fee for what is entered now, asked again whenever the destination or amount changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `message` only formats an error for display
  useEffect(() => {
    setFee(null);
    setError(null);
    const dest = address.trim();
    if (!dest || (!sendAll && !amount)) return;
    let current = true;
    const ask = sendAll
      ? client.dispatch({ _tag: "EstimateSweepTxFee", address: dest })
      : client
          .dispatch({ _tag: "EstimateTxFee", address: dest, amountSats: BigInt(amount) })
          .then((r) => ({ feeSats: r.feeSats, amountSats: BigInt(amount) }));
    const timer = setTimeout(() => {
      ask.then((f) => current && setFee(f)).catch((e) => current && setError(errorText(e)));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [address, amount, sendAll, client]);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!fee) return;
    setStep("sending");
    try {
      const dest = address.trim();
      const r = sendAll
        ? await client.dispatch({ _tag: "SweepWallet", address: dest, labels: [] })
        : {
            ...(await client.dispatch({
              _tag: "SendToAddress",
              address: dest,
              amountSats: BigInt(amount),
              labels: [],
            })),
            amountSats: BigInt(amount),
          };
      setResult({ ok: true, ...r });
    } catch (err) {
      setResult({ ok: false, reason: errorText(err) });
    } finally {
      setStep("form");
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("send.title")}</h1>
      <form className="column" onSubmit={send}>
        <label htmlFor="send-address">{t("send.destination")}</label>
        <input
          id="send-address"
          autoComplete="off"
          spellCheck={false}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
        />
        <label htmlFor="send-amount">{t("send.amount_sats")}</label>
        <input
          id="send-amount"
          inputMode="numeric"
          autoComplete="off"
          disabled={sendAll}
          value={sendAll ? "" : amount}
          onChange={(e) => setAmount(normaliseSatsInput(e.target.value))}
        />
        <label className="row">
          <input type="checkbox" checked={sendAll} onChange={(e) => setSendAll(e.target.checked)} />
          {t("send.send_all")}
        </label>
        {fee ? (
          <p data-testid="send-fee">
            {t("send.fee_line", {
              amount: groupSats(fee.amountSats, lang),
              fee: groupSats(fee.feeSats, lang),
            })}
          </p>
        ) : null}
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={!fee || step === "sending"}>
          {step === "sending" ? t("send.sending") : t("send.confirm_send")}
        </button>
      </form>
      <Dialog
        open={result !== null}
        title={result?.ok ? t("send.sent_title") : t("send.failed_title")}
        onClose={() => setResult(null)}
      >
        {result?.ok ? (
          <div className="column">
            <p>
              {t("send.sent_text", {
                amount: groupSats(result.amountSats, lang),
                fee: groupSats(result.feeSats, lang),
              })}
            </p>
            <code title={result.txid}>{truncateMiddle(result.txid)}</code>
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
