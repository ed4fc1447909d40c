import { useErrorText } from "../../ui/errors";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Skeleton } from "../../ui/Skeleton";
import { useBalanceShown } from "../../ui/prefs";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { Amount } from "./Amount";

/** Balances by where they are held (spec 1 §2 balance card). Tapping cycles sats → fiat → hidden. */
export function BalanceCard() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const balance = useView("balance");
  const wallet = useView("wallet");
  const federations = useView("federations");
  const live = useView("live");
  const [shown, cycle] = useBalanceShown();
  const client = useWallet();
  const toast = useToast();
  const syncNow = () =>
    client.dispatch({ _tag: "SyncOnchain" }).catch((e: unknown) =>
      toast({
        title: t("common.error"),
        description: errorText(e),
        isError: true,
      }),
    );

  if (!balance || !wallet) {
    return (
      <section className="card balance-card" aria-label={t("home.balance")} aria-busy="true">
        <Skeleton width="10rem" height="2rem" />
        <Skeleton width="6rem" />
      </section>
    );
  }
  const pending = balance.unconfirmed;
  return (
    <section className="card balance-card" aria-label={t("home.balance")}>
      {federations && federations.length > 0 ? (
        <div className="balance-row" data-testid="federation-section">
          <span className="balance-label">{t("home.federation_balance")}</span>
          <button type="button" className="balance-amount" onClick={cycle} title={t("home.cycle_balance")}>
            <Amount sats={balance.federation} shown={shown} live={live} unit="e-sats" />
          </button>
          {/* Custody is always visible: who holds each part of the ecash. */}
          {federations.map((f) => (
            <span key={f.federation_id} className="badge" data-testid="custody-label">
              <Amount sats={f.balance} shown={shown} live={live} unit="e-sats" />{" "}
              {t("home.held_by", { name: f.federation_name })}
            </span>
          ))}
          {balance.federation > 0n ? (
            <Link href="/swaplightning" className="link">
              {t("home.swap_lightning")}
            </Link>
          ) : null}
        </div>
      ) : null}
      <div className="balance-row">
        <span className="balance-label">{t("home.lightning_balance")}</span>
        {wallet.safe_mode ? (
          <span className="error-text">{t("home.safe_mode_error")}</span>
        ) : (
          <button
            type="button"
            className="balance-amount balance-main"
            onClick={cycle}
            title={t("home.cycle_balance")}
          >
            <Amount sats={balance.lightning} shown={shown} live={live} />
          </button>
        )}
        {live?.lightning === "starting" ? (
          <span className="badge">{t("home.lightning_starting")}</span>
        ) : null}
        {live?.lightning === "failed" ? (
          <span className="row" role="alert">
            <span className="error-text" title={live.lightning_error ?? ""}>
              {t("home.lightning_failed")}
            </span>
            {/* A new worker is a new LDK instance: reloading is how lightning runs again. */}
            <button type="button" className="button button-small" onClick={() => location.reload()}>
              {t("home.lightning_restart")}
            </button>
          </span>
        ) : null}
      </div>
      {balance.force_close > 0n ? (
        <div className="balance-row">
          <span className="balance-label">{t("home.closing_balance")}</span>
          <Amount sats={balance.force_close} shown={shown} live={live} />
        </div>
      ) : null}
      <div className="balance-row">
        <span className="balance-label">{t("home.onchain_balance")}</span>
        <button
          type="button"
          className="balance-amount"
          onClick={cycle}
          title={t("home.cycle_balance")}
          data-testid="onchain-balance"
        >
          <Amount sats={balance.confirmed + balance.unconfirmed} shown={shown} live={live} />
        </button>
        {pending !== 0n ? (
          <span className="badge" data-testid="pending-badge">
            {t("home.pending")}: <Amount sats={pending} shown={shown} live={live} />
          </span>
        ) : null}
      </div>
      <div className="row">
        <button type="button" className="button button-small" onClick={syncNow} disabled={live?.is_syncing}>
          {live?.is_syncing ? t("home.syncing") : t("home.sync_now")}
        </button>
        {live?.sync_error ? <span className="error-text">{t("home.sync_failed")}</span> : null}
        {balance.confirmed + balance.unconfirmed > 0n && !wallet.safe_mode ? (
          <Link href="/swap" className="link">
            {t("home.swap")}
          </Link>
        ) : null}
      </div>
      {!federations || federations.length === 0 ? (
        <Link href="/addfederation" className="link">
          {t("home.join_federation")}
        </Link>
      ) : (
        <Link href="/settings/federations" className="link">
          {t("home.manage_federations")}
        </Link>
      )}
    </section>
  );
}
