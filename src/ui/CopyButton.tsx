import { useEffect, useState } from "react";
import { useI18n } from "../i18n/intl";
import { useToast } from "./toast";

/** Copies `text`; shows the copied state for 2 s by default (1 s in details and feedback). */
export function CopyButton({
  text,
  label,
  copiedMs = 2000,
}: {
  text: string;
  label?: string;
  copiedMs?: number;
}) {
  const { t } = useI18n();
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), copiedMs);
    return () => clearTimeout(timer);
  }, [copied, copiedMs]);
  return (
    <button
      type="button"
      className="button button-small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
        } catch {
          toast({ title: t("common.error"), description: t("send.error_clipboard"), isError: true });
        }
      }}
    >
      {copied ? t("common.copied") : (label ?? t("common.copy"))}
    </button>
  );
}
