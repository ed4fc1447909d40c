import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/intl";
import type { FederationView } from "../../projections";
import { ConfirmDialog, Dialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { formatSats } from "../../ui/format";
import { useView, useWallet } from "../../ui/wallet";

/** Spec 2: the progress is polled each second, up to 60 tries to see the resync start. */
const POLL_MS = 1000;
const START_TRIES = 60;

type Progress = {
  total: number;
  complete: number;
  done: boolean;
  recoveredSats: bigint;
  error: string | null;
};

/**
 * Resync of one custodian, offered only in safe mode (spec 2): confirm, start, a progress dialog that stays
 * until it is done, then 'Nice' reloads home.
 */
export function ResyncFederation({ federation: f }: { federation: FederationView }) {
  const { t, intl } = useI18n();
  const client = useWallet();
  const errorText = useErrorText();
  const safeMode = useView("wallet")?.safe_mode ?? false;
  const [confirm, setConfirm] = useState(false);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!running || progress?.done) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries++;
      client
        .dispatch({ _tag: "FederationResyncProgress", federationId: f.federation_id })
        .then((p) => {
          if (p) setProgress(p);
          else if (tries >= START_TRIES) {
            setRunning(false);
            setError(t("federations.resync_not_started"));
          }
        })
        .catch((e) => {
          setRunning(false);
          setError(errorText(e));
        });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [client, running, progress?.done, f.federation_id, t, errorText]);

  if (!safeMode) return null;

  const start = async () => {
    setConfirm(false);
    setError(null);
    setProgress(null);
    // The progress dialog opens at once, saying the resync is starting, while the wallet checks it may.
    setRunning(true);
    try {
      await client.dispatch({ _tag: "ResyncFederation", federationId: f.federation_id });
    } catch (e) {
      setRunning(false);
      setError(errorText(e));
    }
  };

  const name = f.federation_name;
  return (
    <div className="column">
      <button type="button" className="button" onClick={() => setConfirm(true)} disabled={running}>
        {t("federations.resync", { name })}
      </button>
      <ErrorBox text={error} />
      <ConfirmDialog
        open={confirm}
        title={t("federations.resync_title", { name })}
        message={t("federations.resync_confirm", { name })}
        confirmLabel={t("federations.resync", { name })}
        onConfirm={() => void start()}
        onCancel={() => setConfirm(false)}
      />
      <Dialog
        open={running}
        title={t("federations.resync_progress_title", { name })}
        closable={false}
        onClose={() => undefined}
      >
        {!progress ? (
          <p role="status">{t("federations.resync_starting")}</p>
        ) : !progress.done ? (
          <>
            <progress max={Math.max(progress.total, 1)} value={progress.complete} aria-label={name} />
            <p role="status">
              {t("federations.resync_progress", { complete: progress.complete, total: progress.total })}
            </p>
          </>
        ) : (
          <>
            <p role="status">
              {progress.error
                ? t("federations.resync_failed", { error: progress.error })
                : t("federations.resync_done", { amount: formatSats(intl, progress.recoveredSats) })}
            </p>
            <button type="button" className="button button-primary" onClick={() => location.assign("/")}>
              {t("federations.resync_nice")}
            </button>
          </>
        )}
      </Dialog>
    </div>
  );
}
