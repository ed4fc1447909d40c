import { Link } from "wouter";
import { useI18n } from "../i18n/intl";

export function NotFound() {
  const { t } = useI18n();
  return (
    <main className="screen center">
      <h1>{t("not_found.title")}</h1>
      <p>{t("not_found.text")}</p>
      <Link href="/" className="button button-primary">
        {t("not_found.home")}
      </Link>
    </main>
  );
}
