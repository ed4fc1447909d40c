import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";

const countdown = (seconds: number) => {
  const s = Math.max(0, seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return { days, hours, minutes };
};

/**
 * The expiry warning (spec 1 home): a custodian announced the date it stops serving; the owner is asked
 * to move the ecash out before then, with the time left counted down each minute.
 */
export function ExpiryBanner() {
  const { t } = useI18n();
  const federations = useView("federations");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const ending = (federations ?? []).filter((f) => f.popup_end_timestamp !== null);
  if (ending.length === 0) return null;
  return (
    <>
      {ending.map((f) => {
        const left = (f.popup_end_timestamp ?? 0) - Math.floor(now / 1000);
        return (
          <section
            key={f.federation_id}
            className="card expiry-banner"
            role="alert"
            aria-label={t("expiry.title")}
          >
            <strong>{t("expiry.title")}</strong>
            <p>
              {left > 0
                ? t("expiry.message", { name: f.federation_name, ...countdown(left) })
                : t("expiry.ended", { name: f.federation_name })}
            </p>
            <Link href={`/transfer?from=${encodeURIComponent(f.federation_id)}`} className="link">
              {t("expiry.move")}
            </Link>
          </section>
        );
      })}
    </>
  );
}
