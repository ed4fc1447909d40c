import { useEffect, useState } from "react";
import { CommandFailed } from "../../commands/client";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useView, useWallet } from "../../ui/wallet";

/** Request errors clear on their own after this long (spec 1 §9). */
export const REQUEST_ERROR_MS = 5000;
/** The text a payment command fails with when the invoice was paid already: the approval becomes a deny. */
const ALREADY_PAID = "An invoice must not get paid twice.";

/**
 * Home's requests tab (spec 1 §3): payments from connections that require approval or went over their
 * budget, each approved or denied, or all at once.
 */
export function NwcRequests() {
  const { t } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const errorText = useErrorText();
  const pending = (useView("nwc")?.pending ?? []).filter((p) => p.expiry * 1000 > Date.now());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(null), REQUEST_ERROR_MS);
    return () => clearTimeout(timer);
  }, [error]);

  const act = async (id: string, f: () => Promise<unknown>) => {
    setBusy(id);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  /** Approves one; paid already (by another app or device), it is denied instead. */
  const approveOne = async (id: string) => {
    try {
      await client.dispatch({ _tag: "ApproveNwcInvoice", id });
    } catch (e) {
      if (e instanceof CommandFailed && e.message === ALREADY_PAID) {
        await client.dispatch({ _tag: "DenyNwcInvoice", id });
        return;
      }
      throw e;
    }
  };
  const approve = (id: string) => act(id, () => approveOne(id));
  /** Approves each in turn; one that fails does not stop the others, and the first failure is shown. */
  const approveAll = () =>
    act("all", async () => {
      let failed: unknown = null;
      for (const p of pending) await approveOne(p.id).catch((e) => (failed ??= e));
      if (failed !== null) throw failed;
    });

  if (pending.length === 0) return <p className="empty-state">{t("home.requests_empty")}</p>;
  return (
    <div className="nwc-requests">
      <ErrorBox text={error} />
      {pending.length > 1 ? (
        <div className="row nwc-requests-all">
          <button type="button" className="button button-small" disabled={busy !== null} onClick={approveAll}>
            {t("home.requests.approve_all")}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={busy !== null}
            onClick={() => act("all", () => client.dispatch({ _tag: "DenyAllNwc" }))}
          >
            {t("home.requests.deny_all")}
          </button>
        </div>
      ) : null}
      <ul className="requests">
        {pending.map((p) => (
          <li key={p.id} className="request-card">
            <p className="request-what">
              {t("home.requests.payment", { name: p.name, amount: fmt.sats(p.amount_sats) })}
            </p>
            <p className="hint">
              {p.reason === "budget" ? t("home.requests.over_budget") : t("home.requests.needs_approval")}
            </p>
            <div className="row form-actions">
              <button
                type="button"
                className="button"
                disabled={busy !== null}
                aria-label={t("home.requests.deny_named", { name: p.name, amount: fmt.sats(p.amount_sats) })}
                onClick={() => act(p.id, () => client.dispatch({ _tag: "DenyNwcInvoice", id: p.id }))}
              >
                {t("home.requests.deny")}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={busy !== null}
                aria-label={t("home.requests.approve_named", {
                  name: p.name,
                  amount: fmt.sats(p.amount_sats),
                })}
                onClick={() => approve(p.id)}
              >
                {t("home.requests.approve")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
