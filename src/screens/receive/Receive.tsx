import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import type { ResultOf } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { AmountEntry } from "../../ui/AmountEntry";
import { BackControl } from "../../ui/BackControl";
import { CopyButton } from "../../ui/CopyButton";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { truncateMiddle } from "../../ui/format";
import { useFormat } from "../../ui/useFormat";
import { pollOneAtATime } from "../../ui/poll";
import { Qr } from "../../ui/Qr";
import { useView, useWallet } from "../../ui/wallet";
import { methodKey, nextMethodKey } from "../../ui/amount-entry";
import { PlusAddress, usePlusAddress } from "../profile/PlusAddress";
import { type DelayAsk, DelayConsent, delayAskOf } from "./DelayConsent";
import {
  type LightningLimits,
  RECEIVE_POLL_MS,
  type ReceiveFlavor,
  receiveHint,
  asksSetupFee,
  receiveMethods,
  SETUP_FEE_DEBOUNCE_MS,
  SETUP_FEE_WAIT_MS,
  setupFeeNotices,
} from "./receive-rules";

/** What is shown to pay: the wallet's own request, or (`ecash`) an invoice of the custodian chosen. */
type Shown = ResultOf<"CreateReceive"> & { ecash?: { id: string; name: string } };
type Paid =
  | { kind: "lightning_paid" | "onchain_paid"; amountSats: bigint }
  | { kind: "ecash_paid"; amountSats: bigint; name: string };
type Refused = NonNullable<ResultOf<"CheckReceived">["refused"]>;
type SetupFee = ResultOf<"EstimateReceiveFee"> & { amountSats: bigint };

/** Receive (spec 1 §5): edit (amount, flavor, note), then show the request polled every second, then paid. */
export function Receive() {
  const { t } = useI18n();
  const plusAddress = usePlusAddress();
  const fmt = useFormat();
  const errorText = useErrorText();
  const client = useWallet();
  const balance = useView("balance");
  const federations = useView("federations");
  const [amount, setAmount] = useState<bigint | null>(null);
  const [flavor, setFlavor] = useState<ReceiveFlavor>("unified");
  const [note, setNote] = useState("");
  const [shown, setShown] = useState<Shown | null>(null);
  const shownTitle = useRef<HTMLHeadingElement>(null);
  const showing = shown !== null;
  useEffect(() => {
    if (showing) shownTitle.current?.focus();
  }, [showing]);
  const [paid, setPaid] = useState<Paid | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [setupFee, setSetupFee] = useState<SetupFee | null>(null);
  // The LSP is being asked about a setup fee: "Show address" waits for it (a bounded time).
  const [feeAsking, setFeeAsking] = useState(false);
  // The LSP's refusal of the amount typed (below or above what it opens channels for), in its words.
  const [feeRefused, setFeeRefused] = useState<string | null>(null);
  const [limits, setLimits] = useState<LightningLimits | null>(null);
  // An LSP's shorter safety delay the owner may accept (its refusal says what it means).
  const [delayAsk, setDelayAsk] = useState<DelayAsk | null>(null);
  const methods = receiveMethods(flavor, federations ?? [], limits);
  const [methodChoice, setMethodChoice] = useState<string>("");
  const method = methods.find((m) => methodKey(m) === methodChoice) ?? methods[0];
  // Into ecash: held by that custodian, not by the owner (custody always shown).
  const into = method?.custodian ?? null;

  // What the LSP says a lightning receive can be (none when it says nothing, or lightning is not running).
  useEffect(() => {
    let current = true;
    client
      .dispatch({ _tag: "GetReceiveLimits" })
      .then((l) => {
        if (current) setLimits(l);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client]);

  // A lightning receive beyond the channels' room needs a channel from the LSP: show its fee first.
  useEffect(() => {
    setSetupFee(null);
    setFeeRefused(null);
    setDelayAsk(null);
    const asks = amount !== null && asksSetupFee(flavor, into !== null, amount);
    setFeeAsking(asks);
    if (!asks || amount === null) return;
    let current = true;
    const timer = setTimeout(() => {
      client
        .dispatch({ _tag: "EstimateReceiveFee", amountSats: amount })
        .then((r) => {
          if (current) setSetupFee({ ...r, amountSats: amount });
        })
        .catch((e: unknown) => {
          if (current) setFeeRefused(errorText(e));
          if (current) setDelayAsk(delayAskOf(e));
        })
        .finally(() => {
          if (current) setFeeAsking(false);
        });
    }, SETUP_FEE_DEBOUNCE_MS);
    const waited = setTimeout(() => setFeeAsking(false), SETUP_FEE_DEBOUNCE_MS + SETUP_FEE_WAIT_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      clearTimeout(waited);
    };
  }, [amount, flavor, into, client, errorText]);

  useEffect(() => {
    if (!shown || paid) return;
    let current = true;
    const custodian = shown.ecash;
    // One question at a time: a silent custodian or server never gets a pile of them.
    const stop = pollOneAtATime(async () => {
      if (custodian) {
        // The custodian's invoice: once paid, the worker mints it as ecash there.
        const r = await client.dispatch({ _tag: "CheckEcash", federationId: custodian.id });
        if (current && r.receivedSats > 0n)
          setPaid({ kind: "ecash_paid", amountSats: r.receivedSats, name: custodian.name });
        return;
      }
      const r = await client.dispatch({
        _tag: "CheckReceived",
        address: shown.address,
        paymentHash: shown.paymentHash,
      });
      if (current && r.paid) {
        setPaid({ kind: r.paid, amountSats: r.amountSats });
        void client.dispatch({ _tag: "SyncOnchain" }).catch(() => undefined);
      } else if (current) {
        setRefused(r.refused ?? null);
      }
    }, RECEIVE_POLL_MS);
    return () => {
      current = false;
      stop();
    };
  }, [shown, paid, client]);

  const submit = async (e?: React.FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const labels = note.trim() ? [note.trim()] : [];
      if (into) {
        const r = await client.dispatch({
          _tag: "ReceiveEcash",
          federationId: into.id,
          amountSats: amount ?? 0n,
        });
        setShown({
          uri: r.bolt11,
          address: null,
          invoice: r.bolt11,
          paymentHash: r.paymentHash,
          ecash: into,
        });
        return;
      }
      setShown(await client.dispatch({ _tag: "CreateReceive", amountSats: amount, labels, flavor }));
    } catch (err) {
      setError(errorText(err));
      setDelayAsk(delayAskOf(err));
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setShown(null);
    setRefused(null);
    setPaid(null);
    setAmount(null);
    setFlavor("unified");
    setMethodChoice("");
    setNote("");
  };

  if (paid) {
    return (
      <main className="screen center">
        <h1>{t("receive.paid_title")}</h1>
        <p role="status">
          {paid.kind === "ecash_paid"
            ? t("receive.ecash_paid", { amount: fmt.sats(paid.amountSats), name: paid.name })
            : t(paid.kind === "lightning_paid" ? "receive.lightning_paid" : "receive.onchain_paid", {
                amount: fmt.sats(paid.amountSats),
              })}
        </p>
        <div className="row">
          <Link href="/" className="button button-primary">
            {t("common.home")}
          </Link>
          <button type="button" className="button" onClick={reset}>
            {t("receive.receive_again")}
          </button>
        </div>
      </main>
    );
  }

  if (shown) {
    return (
      <main className="screen receive-shown">
        <BackControl />
        {/* Focus comes here once the code shows, so a keyboard or screen reader is not left on the page. */}
        <h1 ref={shownTitle} tabIndex={-1}>
          {t("receive.title")}
        </h1>
        {/* What was asked: the amount and the note stay in sight beside the code. */}
        {amount !== null && amount > 0n ? (
          <p className="receive-amount" data-testid="receive-amount">
            {fmt.sats(amount)} {t("common.sats", { count: amount === 1n ? 1 : 2 })}
          </p>
        ) : null}
        {note.trim() !== "" && !shown.ecash ? <p className="receive-note">{note.trim()}</p> : null}
        {shown.ecash ? (
          <p className="hint" role="note">
            {t("receive.ecash_note", { name: shown.ecash.name })}
          </p>
        ) : null}
        <div className="qr-frame">
          <Qr value={shown.uri} size={256} label={t("receive.qr_label")} />
        </div>
        <dl className="details">
          {shown.address ? (
            <IdDetail term={t("receive.address_label")} id={shown.address} testId="receive-address" />
          ) : null}
          {shown.invoice ? (
            <IdDetail term={t("receive.invoice_label")} id={shown.invoice} testId="receive-invoice" />
          ) : null}
        </dl>
        <div className="copy-actions">
          {shown.address ? <CopyButton text={shown.address} label={t("receive.copy_address")} /> : null}
          {shown.invoice ? <CopyButton text={shown.invoice} label={t("receive.copy_invoice")} /> : null}
          {shown.uri !== shown.address && shown.uri !== shown.invoice ? (
            <CopyButton text={shown.uri} label={t("receive.copy_uri")} />
          ) : null}
        </div>
        {setupFee?.needsChannel && shown.invoice && !shown.ecash ? (
          <p className="hint" role="note">
            {t("receive.setup_fee", {
              fee: fmt.sats(setupFee.feeSats),
              amount: fmt.sats(setupFee.amountSats - setupFee.feeSats),
            })}
          </p>
        ) : null}
        {refused ? (
          <p className="error-text" role="alert" data-testid="receive-refused">
            {t("receive.payment_refused", {
              kept: fmt.sats(refused.keptSats),
              promised: fmt.sats(refused.promisedSats),
            })}
          </p>
        ) : null}
        <p className="hint" role="status">
          {t("receive.waiting")}
        </p>
        <button
          type="button"
          className="button"
          onClick={() => {
            setShown(null);
            setRefused(null);
          }}
        >
          {t("receive.edit")}
        </button>
      </main>
    );
  }

  const hint = into
    ? null
    : receiveHint(flavor, amount, balance?.lightning ?? 0n, limits?.channelMinSats ?? null);
  const notices = into ? [] : setupFeeNotices(setupFee);
  return (
    <main className="screen">
      <BackControl />
      <h1>{t("receive.title")}</h1>
      {/* A Plus member's lightning address leads: friends pay it any time, with no amount to agree first. */}
      {plusAddress ? (
        <section className="card column" aria-label={t("profile.lightning_address")}>
          <PlusAddress address={plusAddress} />
          <p className="hint">{t("receive.address_caption")}</p>
        </section>
      ) : null}
      <form className="column" onSubmit={submit}>
        <AmountEntry
          id="receive-amount"
          label={t("receive.amount_sats")}
          value={amount}
          onChange={setAmount}
          receiving
          // With a custodian joined, the control offers receiving into its ecash; else only the wallet's own.
          methods={methods.length > 1 ? methods : []}
          method={method ? methodKey(method) : undefined}
          onMethod={() => setMethodChoice(nextMethodKey(methods, method ? methodKey(method) : ""))}
        />
        {into ? (
          <p className="hint" role="note">
            {t("receive.ecash_note", { name: into.name })}
          </p>
        ) : (
          <fieldset className="column">
            <legend>{t("receive.flavor")}</legend>
            {(["unified", "lightning", "onchain"] as const).map((f) => (
              <label key={f} className="check-row">
                <input type="radio" name="flavor" checked={flavor === f} onChange={() => setFlavor(f)} />
                {t(`receive.flavor_${f}`)}
              </label>
            ))}
          </fieldset>
        )}
        {into ? null : (
          // A note labels the wallet's own request; the custodian's invoice carries none.
          <>
            <label htmlFor="receive-note">{t("receive.note")}</label>
            <input id="receive-note" value={note} maxLength={255} onChange={(e) => setNote(e.target.value)} />
          </>
        )}
        {hint ? (
          <p className="hint">{t(hint.key, hint.amount === null ? {} : { amount: fmt.sats(hint.amount) })}</p>
        ) : null}
        {feeRefused && !into ? (
          <p className="hint" role="note" data-testid="receive-lsp-refused">
            {feeRefused}
          </p>
        ) : null}
        {delayAsk && !into ? (
          <DelayConsent
            ask={delayAsk}
            onAccepted={() => {
              // The LSP is asked again, now with the delay accepted (a shorter one would ask again).
              setDelayAsk(null);
              setError(null);
              setFeeRefused(null);
              if (amount !== null && amount > 0n)
                client.dispatch({ _tag: "EstimateReceiveFee", amountSats: amount }).then(
                  (r) => setSetupFee({ ...r, amountSats: amount }),
                  (e: unknown) => {
                    setFeeRefused(errorText(e));
                    setDelayAsk(delayAskOf(e));
                  },
                );
            }}
            onDeclined={() => setDelayAsk(null)}
          />
        ) : null}
        {notices.map((n) => (
          <p key={n.key} className="hint" role="note">
            {t(n.key, { fee: fmt.sats(n.fee), amount: fmt.sats(n.arrives) })}
          </p>
        ))}
        <ErrorBox text={error} />
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || feeAsking}
          aria-busy={feeAsking || undefined}
        >
          {t("receive.show_address")}
        </button>
      </form>
    </main>
  );
}

/** One id in the request's details: its name, then the id shortened in its middle (whole on hover). */
function IdDetail({ term, id, testId }: { term: string; id: string; testId: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>
        <code data-testid={testId} title={id}>
          {truncateMiddle(id)}
        </code>
      </dd>
    </>
  );
}
