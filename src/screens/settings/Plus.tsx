import { useCallback, useEffect } from "react";
import { Link, useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useAction } from "../../ui/form";
import { useFormat } from "../../ui/useFormat";
import { useView, useWallet } from "../../ui/wallet";
import { usePlusAddress } from "../profile/PlusAddress";

/**
 * Plus (spec 2): the plans, join (disabled with a balance warning unless lightning plus federation balance
 * is above the price), and for a member the renewal date and whether the subscription is active, all from
 * the worker's plus view (the screen asks it to read the service again when it opens). Joining makes the
 * subscription connection (wallet-connect index 0, the plan's price per month, fixed), gives it to the
 * membership service and pays its invoice for exactly the price shown on the button.
 */
export function Plus() {
  const { t, lang } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const config = useWalletConfig();
  const errorText = useErrorText();
  const plus = useView("plus");
  const address = usePlusAddress();
  const query = new URLSearchParams(useSearch());
  const { busy, error, setError, run } = useAction();
  const host = config.subscriptions ?? "";

  const load = useCallback(() => {
    if (!host) return;
    client.dispatch({ _tag: "GetPlus", host }).then(
      () => setError(null),
      (e) => setError(errorText(e)),
    );
  }, [client, host, errorText, setError]);
  useEffect(load, [load]);

  // What the service said when last read: shown at once, and refreshed by the read above.
  const state = plus?.known ? plus : null;
  const wanted = Number(query.get("plan") ?? Number.NaN);

  const join = (planId: number, amountSats: bigint) =>
    run(async () => {
      await client.dispatch({ _tag: "PreparePlus", host, planId });
      const { uri } = await client.dispatch({ _tag: "GetNwcUri", index: 0 });
      const invoice = await client.dispatch({ _tag: "SubscribePlus", host, planId, nwc: uri });
      if (invoice.amountSats !== amountSats) throw new Error("price changed");
      await client.dispatch({ _tag: "PayInvoice", bolt11: invoice.bolt11, amountSats, labels: ["Plus"] });
      load();
    });

  const renewal =
    state?.subscription_timestamp != null
      ? new Date(state.subscription_timestamp * 1000).toLocaleDateString(lang, {
          dateStyle: "long",
        } as Intl.DateTimeFormatOptions)
      : null;

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.plus.title")}</h1>
      <p>{t("settings.plus.caption")}</p>
      {!host ? <ErrorBox text={t("settings.plus.error_no_service")} /> : null}
      {state?.mutiny_plus ? (
        <section className="card column" aria-labelledby="plus-member">
          <h2 id="plus-member">{t("settings.plus.member")}</h2>
          {/* What it costs, what it pays for, until when, and how to stop it. */}
          {state.plans[0] ? (
            <p>{t("settings.plus.plan_price", { amount: fmt.sats(state.plans[0].amount_sats) })}</p>
          ) : null}
          {address ? <p>{t("settings.plus.member_address", { address })}</p> : null}
          <p role="status">{t("settings.plus.renews", { date: renewal ?? "" })}</p>
          <p className="hint">
            {t("settings.plus.cancel")}{" "}
            <Link href="/settings/connections" className="link">
              {t("settings.connections.title")}
            </Link>
          </p>
        </section>
      ) : state && state.subscription_timestamp !== null ? (
        <p role="status">{t("settings.plus.lapsed", { date: renewal ?? "" })}</p>
      ) : null}
      {state && !state.mutiny_plus ? (
        <ul className="item-list plan-list" aria-label={t("settings.plus.plans")}>
          {state.plans.map((p) => {
            const enough = p.can_join;
            const price = fmt.sats(p.amount_sats);
            return (
              <li key={p.id}>
                <p>{t("settings.plus.plan_price", { amount: price })}</p>
                {!enough ? (
                  <p role="alert" id={`plus-balance-${p.id}`}>
                    {t("settings.plus.error_balance_warning", { amount: price })}
                  </p>
                ) : null}
                <button
                  type="button"
                  className={`button ${wanted === p.id || state.plans.length === 1 ? "button-primary" : ""}`}
                  disabled={!enough || busy}
                  aria-describedby={!enough ? `plus-balance-${p.id}` : undefined}
                  onClick={() => join(p.id, p.amount_sats)}
                >
                  {busy ? t("settings.plus.joining") : t("settings.plus.join", { amount: price })}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <ErrorBox text={error} />
    </main>
  );
}
