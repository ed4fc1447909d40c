import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { currencyByCode, satsToFiatParts } from "../../ui/money";
import { MobileActions } from "../../ui/Nav";
import { useErrorText } from "../../ui/errors";
import { useBalanceShown } from "../../ui/prefs";
import { ProgressBar, Skeleton } from "../../ui/Skeleton";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { Amount } from "./Amount";
import type { HomeProgress } from "./progress";

/**
 * Balances (spec 1 §2 balance card): the total, then where each part is held: lightning and on-chain in the
 * owner's custody, ecash by the federation or mint that holds it. Tapping an amount cycles sats → fiat →
 * hidden. The card keeps its size as its parts load: placeholders stand where the amounts will be, and the
 * loading bar and the sync button share one line.
 */
export function BalanceCard({ progress }: { readonly progress: HomeProgress | null }) {
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
    client
      .dispatch({ _tag: "SyncOnchain" })
      .catch((e: unknown) => toast({ title: t("common.error"), description: errorText(e), isError: true }));
  const ready = balance && wallet ? { balance, wallet } : null;
  // In fiat the rows add up to the total: the total, lightning (open, then opening), closing, on-chain, then
  // each custodian's ecash, rounded together.
  const currency = live?.price ? currencyByCode(live.fiat) : undefined;
  const fiat =
    ready && live?.price && currency
      ? satsToFiatParts(
          [
            ready.balance.lightning,
            ready.balance.lightning_pending,
            ready.balance.force_close,
            ready.balance.confirmed + ready.balance.unconfirmed,
            ...(federations ?? []).map((f) => f.balance),
          ],
          live.price,
          currency.maxFractionalDigits,
        )
      : null;
  // The total is the one button that changes how every amount shows; the parts follow it (one tab stop, so
  // the keyboard reaches Send right after the balance).
  const amount = (sats: bigint | undefined, testId?: string, main = false, share?: string) =>
    sats === undefined ? (
      <Skeleton width={main ? "9rem" : "5rem"} height={main ? "2.2rem" : "1.4rem"} />
    ) : main ? (
      <button
        type="button"
        className="balance-amount balance-main"
        onClick={cycle}
        title={t("home.cycle_balance")}
        data-testid={testId}
      >
        <Amount sats={sats} shown={shown} live={live} fiat={share} />
      </button>
    ) : (
      <span className="balance-amount" data-testid={testId}>
        <Amount sats={sats} shown={shown} live={live} fiat={share} />
      </span>
    );

  return (
    <section
      className="card balance-card"
      aria-label={t("home.balance")}
      aria-busy={ready ? undefined : true}
    >
      <div className="balance-total">
        <span className="balance-label">{t("home.total")}</span>
        {amount(ready?.balance.total, "total-balance", true, fiat?.whole)}
      </div>
      <div className="balance-parts">
        <div className="balance-row">
          <span className="balance-label">{t("home.lightning_balance")}</span>
          {ready?.wallet.safe_mode ? (
            <span className="error-text">{t("home.safe_mode_error")}</span>
          ) : (
            amount(ready?.balance.lightning, "lightning-balance", false, fiat?.parts[0])
          )}
          {/* A channel still opening is the owner's, but not spendable until it is open. */}
          {ready && ready.balance.lightning_pending > 0n && !ready.wallet.safe_mode ? (
            <span className="badge" data-testid="lightning-pending-badge">
              {t("home.pending")}:{" "}
              <Amount
                sats={ready.balance.lightning_pending}
                shown={shown}
                live={live}
                fiat={fiat?.parts[1]}
              />
            </span>
          ) : null}
        </div>
        {ready && ready.balance.force_close > 0n ? (
          <div className="balance-row">
            <span className="balance-label">{t("home.closing_balance")}</span>
            <Amount sats={ready.balance.force_close} shown={shown} live={live} fiat={fiat?.parts[2]} />
          </div>
        ) : null}
        <div className="balance-row">
          <span className="balance-label">{t("home.onchain_balance")}</span>
          {amount(
            ready ? ready.balance.confirmed + ready.balance.unconfirmed : undefined,
            "onchain-balance",
            false,
            fiat?.parts[3],
          )}
          {ready && ready.balance.unconfirmed !== 0n ? (
            <span className="badge" data-testid="pending-badge">
              {t("home.pending")}: <Amount sats={ready.balance.unconfirmed} shown={shown} live={live} />
            </span>
          ) : null}
        </div>
        {/* Custody is always visible: who holds each part of the ecash, each once. */}
        {/* A custodian that announced its shutdown: its ecash is marked at risk (the notice above says until when). */}
        {(federations ?? []).map((f, i) => (
          <div key={f.federation_id} className="balance-row balance-ecash" data-testid="custody-label">
            <span className="balance-amount">
              <Amount sats={f.balance} shown={shown} live={live} unit="e-sats" fiat={fiat?.parts[4 + i]} />
            </span>{" "}
            <span className="balance-label">{t("home.held_by", { name: f.federation_name })}</span>
            {f.popup_end_timestamp !== null && f.balance > 0n ? (
              <span className="badge badge-danger" data-testid="ecash-at-risk">
                {t("home.ecash_at_risk")}
              </span>
            ) : null}
          </div>
        ))}
      </div>
      <MobileActions />
      <div className="balance-status">
        {progress ? (
          <div className="home-progress">
            <ProgressBar
              value={progress.value}
              max={progress.max}
              label={t("boot.loading")}
              text={t(progress.key)}
            />
            <span className="hint" aria-hidden="true">
              {live?.lightning === "starting" ? `${t("home.lightning_starting")} · ` : null}
              {t(progress.key)}
            </span>
          </div>
        ) : (
          <>
            <button
              type="button"
              className="button button-small"
              onClick={syncNow}
              disabled={!ready || live?.is_syncing}
            >
              {live?.is_syncing ? t("home.syncing") : t("home.sync_now")}
            </button>
            {live?.sync_error ? <span className="error-text">{t("home.sync_failed")}</span> : null}
          </>
        )}
      </div>
      <div className="balance-links">
        {ready && ready.balance.federation > 0n ? (
          <Link href="/swaplightning" className="link">
            {t("home.swap_lightning")}
          </Link>
        ) : null}
        {ready && ready.balance.confirmed + ready.balance.unconfirmed > 0n && !ready.wallet.safe_mode ? (
          <Link href="/swap" className="link">
            {t("home.swap")}
          </Link>
        ) : null}
        {federations && federations.length > 0 ? (
          <Link href="/settings/federations" className="link">
            {t("home.manage_federations")}
          </Link>
        ) : (
          <Link href="/addfederation" className="link">
            {t("home.join_federation")}
          </Link>
        )}
      </div>
    </section>
  );
}
