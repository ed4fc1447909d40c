import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

const countdown = (seconds: number) => {
  const s = Math.max(0, seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return { days, hours, minutes };
};

/**
 * The expiry warning (spec 1 home): a custodian announced the date it stops serving; the owner is asked
 * to move the ecash out before then, with the time left counted down each minute. One notice per
 * custodian, its action the transfer out.
 */
export function useExpiryNotices(): Notice[] {
  const { t } = useI18n();
  const federations = useView("federations");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (federations ?? [])
    .filter((f) => f.popup_end_timestamp !== null)
    .map((f) => {
      const left = (f.popup_end_timestamp ?? 0) - Math.floor(now / 1000);
      return {
        id: `expiry-${f.federation_id}`,
        tone: "alert",
        label: t("expiry.title"),
        text:
          left > 0
            ? t("home.status.ending", { name: f.federation_name, ...countdown(left) })
            : t("expiry.ended", { name: f.federation_name }),
        action: (
          <Link href={`/transfer?from=${encodeURIComponent(f.federation_id)}`} className="link">
            {t("expiry.move")}
          </Link>
        ),
      };
    });
}
