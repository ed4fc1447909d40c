import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { CommandFailed } from "../../commands/client";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { Dialog } from "../../ui/Dialog";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox } from "../../ui/errors";
import { Form, PeerField, useAction } from "../../ui/form";
import { useFormat } from "../../ui/useFormat";
import { normaliseSatsInput } from "../../ui/money";
import { MIN_CHANNEL_SATS } from "../../money";
import { useView, useWallet } from "../../ui/wallet";

type Result = { ok: true; amountSats: bigint } | { ok: false; message: string };

/** Swap on-chain funds into a lightning channel (spec 2 "Swap"): peer, amount, fee, confirm, result. */
export function Swap() {
  const { t } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const [, navigate] = useLocation();
  const config = useWalletConfig();
  const balance = useView("balance");
  const live = useView("live");
  const [peer, setPeer] = useState("");
  const [amount, setAmount] = useState("");
  const [estimate, setEstimate] = useState<{ feeSats: bigint; sweep: boolean } | null>(null);
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<Result | null>(null);

  const onchain = (balance?.confirmed ?? 0n) + (balance?.unconfirmed ?? 0n);
  const sats = amount === "" ? null : BigInt(amount);
  const needsPeer = config.lsp === null;
  // The smallest channel is known before pressing: below it the button stays off and says why.
  const belowMinimum = sats !== null && sats < MIN_CHANNEL_SATS;

  // The worker decides the fee and whether the amount sweeps everything; nothing is shown for an
  // amount it refuses.
  useEffect(() => {
    setEstimate(null);
    if (sats === null || belowMinimum) return;
    const timer = setTimeout(() => {
      client
        .dispatch({ _tag: "EstimateChannelOpenFee", amountSats: sats })
        .then(setEstimate)
        .catch(() => setEstimate(null));
    }, 300);
    return () => clearTimeout(timer);
  }, [client, sats, belowMinimum]);

  const submit = () =>
    run(
      async () => {
        if (sats === null) return;
        const target = needsPeer ? { peer: peer.trim() } : {};
        const r = await client.dispatch({ _tag: "OpenChannel", amountSats: sats, ...target });
        setResult({ ok: true, amountSats: r.amountSats });
      },
      {
        // Bad input is shown by the form; a failure of the open itself gets the result dialog.
        explain: (e, message) => {
          if (e instanceof CommandFailed && (e._tag === "InvalidInput" || e._tag === "InsufficientFunds"))
            return message;
          setResult({ ok: false, message });
          return null;
        },
      },
    );

  const reset = () => {
    setResult(null);
    setAmount("");
    setPeer("");
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("swap.title")}</h1>
      <p>{t("swap.caption")}</p>
      {live?.lightning === "safe_mode" ? <p role="status">{t("home.safe_mode_error")}</p> : null}
      <Form onSubmit={submit}>
        {needsPeer ? (
          <PeerField id="swap-peer" label={t("swap.peer")} value={peer} onValue={setPeer} />
        ) : (
          <p>{t("swap.lsp_peer")}</p>
        )}
        <label htmlFor="swap-amount">{t("swap.amount")}</label>
        <p id="swap-minimum" className={belowMinimum ? "warning" : "hint"}>
          {t("swap.minimum", { amount: fmt.sats(MIN_CHANNEL_SATS) })}
        </p>
        <div className="row">
          <input
            id="swap-amount"
            inputMode="numeric"
            aria-describedby="swap-minimum"
            aria-invalid={belowMinimum}
            value={amount}
            onChange={(e) => setAmount(normaliseSatsInput(e.target.value))}
          />
          <button
            type="button"
            className="button"
            onClick={() => setAmount(onchain.toString() /* amount-text: input value */)}
          >
            {t("swap.max")}
          </button>
        </div>
        <p>{t("swap.available", { amount: fmt.sats(onchain) })}</p>
        {estimate ? <p>{t("swap.fee", { amount: fmt.sats(estimate.feeSats) })}</p> : null}
        {estimate?.sweep ? <p>{t("swap.sweep_notice")}</p> : null}
        <ErrorBox text={error} />
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || sats === null || belowMinimum || (needsPeer && peer.trim() === "")}
        >
          {busy ? t("swap.opening") : t("swap.confirm")}
        </button>
      </Form>
      <Dialog
        open={result !== null}
        title={result?.ok ? t("swap.success_title") : t("swap.failure_title")}
        onClose={reset}
      >
        <p>{result?.ok ? t("swap.success", { amount: fmt.sats(result.amountSats) }) : result?.message}</p>
        <button type="button" className="button button-primary" onClick={() => navigate("/")}>
          {t("common.home")}
        </button>
      </Dialog>
    </main>
  );
}
