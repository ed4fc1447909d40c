import { useEffect, useState } from "react";
import { LOAD_STAGES, type LoadStage } from "../commands/protocol";
import { bootErrorKind, STUCK_AFTER_MS } from "../boot";
import { useI18n } from "../i18n/intl";
import { lightningRanHere } from "../ui/prefs";
import { ProgressBar } from "../ui/Skeleton";

/** While the wallet loads: the stage as progress 0 to 5; after 10 s a way to the emergency kit. */
export function Loading({ stage }: { stage: LoadStage }) {
  const { t } = useI18n();
  const [stuck, setStuck] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setStuck(true), STUCK_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <main className="screen center" aria-busy="true">
      <h1>{t("boot.loading")}</h1>
      <ProgressBar value={LOAD_STAGES.indexOf(stage)} max={5} label={t("boot.progress")} />
      <p>{t(`boot.stage.${stage}`)}</p>
      {stuck ? (
        <p role="status">
          {t("boot.stuck")}{" "}
          <a className="link" href="/settings/emergencykit">
            {t("boot.emergency_kit")}
          </a>
        </p>
      ) : null}
    </main>
  );
}

/** The lock of another device frees in this many seconds when the wallet cannot say (spec 1 §9). */
const LOCK_WAIT_FALLBACK_S = 60;

/** Boot errors, chosen by the message's prefix. */
export function BootError({
  message,
  onEmergency,
  seconds: lockSecs,
}: {
  message: string;
  onEmergency?: () => void;
  /** Already running: the seconds the other device's lock has left (`get_device_lock_remaining_secs`). */
  seconds?: number;
}) {
  const { t } = useI18n();
  const kind = bootErrorKind(message);
  const [seconds, setSeconds] = useState(lockSecs ?? LOCK_WAIT_FALLBACK_S);
  useEffect(() => {
    if (kind !== "already_running") return;
    const timer = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, [kind]);
  useEffect(() => {
    if (kind === "already_running" && seconds === 0) location.reload();
  }, [kind, seconds]);

  // Another device holds the lock: this one ran lightning before, so it was taken over.
  const [takenOver] = useState(() => kind === "already_running" && lightningRanHere());
  // The screen says what happened in the catalogue's words once: the boot message itself where it is the
  // catalogue's (another tab), and a failure's details as the wallet said them.
  const detail = kind === "failed" || kind === "network" || kind === "existing_tab" ? message : null;

  return (
    <main className="screen center">
      <h1>{t(`boot.error.${kind}.title`)}</h1>
      {takenOver ? <p>{t("storage.taken_over")}</p> : null}
      <p>{t(`boot.error.${kind}.text`, { seconds })}</p>
      {kind === "already_running" ? (
        <>
          <p>{t("boot.error.already_running.money")}</p>
          <button type="button" className="button button-primary" onClick={() => location.reload()}>
            {t("boot.error.already_running.retry")}
          </button>
        </>
      ) : null}
      {detail ? (
        <p className="error-box" role="alert">
          {detail}
        </p>
      ) : null}
      {kind === "failed" || kind === "network" ? (
        <div className="column">
          <button type="button" className="button button-primary" onClick={() => location.reload()}>
            {t("error.reload")}
          </button>
          {onEmergency ? (
            // Emergency mode: the kit opens here, through a minimal worker, without the one that failed.
            <button type="button" className="button" onClick={onEmergency}>
              {t("boot.emergency_kit")}
            </button>
          ) : (
            <a className="button" href="/settings/emergencykit">
              {t("boot.emergency_kit")}
            </a>
          )}
        </div>
      ) : null}
      {kind === "existing_tab" ? (
        <button type="button" className="button" onClick={() => location.reload()}>
          {t("error.reload")}
        </button>
      ) : null}
    </main>
  );
}

/** Above every screen in emergency mode: what runs, and the way back to the wallet. */
export function EmergencyBanner() {
  const { t } = useI18n();
  return (
    <div className="update-banner" role="status">
      {t("boot.emergency_mode")}
      <button type="button" className="button button-small" onClick={() => location.assign("/")}>
        {t("error.reload")}
      </button>
    </div>
  );
}
