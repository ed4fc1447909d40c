import { useState } from "react";
import { useLocation } from "wouter";
import { CommandFailed } from "../../commands/client";
import { BackControl } from "../../ui/BackControl";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { useAction } from "../../ui/form";
import { useWallet } from "../../ui/wallet";

/**
 * /addfederation (spec 2): recommended custodians to join, or skip after a confirm. On regtest they are the
 * local world's two mints; elsewhere none is recommended yet. A custodian that cannot be reached ('Failed
 * to connect to a federation.' or 'Invalid Arguments were given') gives way to the next one.
 */
export function AddFederation() {
  const { t } = useI18n();
  const client = useWallet();
  const config = useWalletConfig();
  const [, navigate] = useLocation();
  const { busy, error, run } = useAction();
  const [confirmSkip, setConfirmSkip] = useState(false);
  const world = config.network === "regtest" ? new URL(config.esplora).origin : null;
  const recommended = world ? [`${world}/cashu`, `${world}/cashu2`] : [];

  const join = (codes: string[]) =>
    run(async () => {
      for (const [i, code] of codes.entries()) {
        try {
          await client.dispatch({ _tag: "JoinFederation", code });
          navigate("/");
          return;
        } catch (e) {
          const next =
            e instanceof CommandFailed &&
            (e.message === "Failed to connect to a federation." ||
              e.message === "Invalid Arguments were given");
          if (!next || i === codes.length - 1) throw e;
        }
      }
    });

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("add_federation.title")}</h1>
      <p>{t("add_federation.caption")}</p>
      {recommended.length === 0 ? <p>{t("add_federation.none")}</p> : null}
      <ul className={recommended.length > 0 ? "item-list card" : "item-list"}>
        {recommended.map((url) => (
          <li key={url}>
            <span className="mono">{url}</span>
            <button type="button" className="button" disabled={busy} onClick={() => void join([url])}>
              {t("add_federation.join")}
            </button>
          </li>
        ))}
      </ul>
      <ErrorBox text={error} />
      <div className="row">
        {recommended.length > 1 ? (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void join(recommended)}
          >
            {t("add_federation.join_first")}
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => setConfirmSkip(true)}>
          {t("add_federation.skip")}
        </button>
      </div>
      <ConfirmDialog
        open={confirmSkip}
        title={t("add_federation.skip_title")}
        message={t("add_federation.skip_confirm")}
        onConfirm={() => navigate("/")}
        onCancel={() => setConfirmSkip(false)}
      />
    </main>
  );
}
