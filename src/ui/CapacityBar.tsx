import { useI18n } from "../i18n/intl";

/** A channel's capacity as a bar: our share (left) against what the peer holds. */
export function CapacityBar({ ours, size }: { ours: bigint; size: bigint }) {
  const { t } = useI18n();
  return (
    <meter
      className="capacity-bar"
      aria-label={t("channels.bar_label")}
      min={0}
      max={Number(size)}
      value={Number(ours > size ? size : ours)}
    />
  );
}
