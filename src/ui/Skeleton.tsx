import { useI18n } from "../i18n/intl";

/** A placeholder while a view has not arrived yet. */
export function Skeleton({ width = "8rem", height = "1.5rem" }: { width?: string; height?: string }) {
  const { t } = useI18n();
  return (
    <span className="skeleton" style={{ width, height }} role="status" aria-label={t("common.loading")} />
  );
}

/** A progress bar named by `label`; `text` tells screen readers the step under way. */
export function ProgressBar({
  value,
  max,
  label,
  text,
}: {
  value: number;
  max: number;
  label: string;
  text?: string;
}) {
  return <progress className="progress" value={value} max={max} aria-label={label} aria-valuetext={text} />;
}
