import { ChevronLeft } from "lucide-react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";

/** Where "back" leads: the previous location kept in navigation state, else the parent path, else home. */
export const backTarget = (path: string, previous: string | null | undefined): string => {
  if (previous) return previous;
  const parts = path.split("/").filter(Boolean);
  parts.pop();
  return parts.length > 0 ? `/${parts.join("/")}` : "/";
};

export function BackControl() {
  const [path] = useLocation();
  const { t } = useI18n();
  const previous = (history.state as { previous?: string } | null)?.previous;
  const target = backTarget(path, previous);
  return (
    <Link href={target} className="back-control">
      <ChevronLeft aria-hidden="true" size={20} />
      {target === "/" ? t("common.home") : t("common.back")}
    </Link>
  );
}
