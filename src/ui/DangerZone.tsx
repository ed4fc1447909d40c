import type { ReactNode } from "react";
import { useI18n } from "../i18n/intl";

/** The last card of a page, apart from the everyday buttons: what cannot be undone, said before its button. */
export function DangerZone({ id, caption, children }: { id: string; caption: string; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <section className="card column danger-zone" aria-labelledby={id}>
      <h2 id={id}>{t("settings.emergency_kit.danger_zone")}</h2>
      <p>{caption}</p>
      {children}
    </section>
  );
}
