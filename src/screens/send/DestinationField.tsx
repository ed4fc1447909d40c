import { ClipboardPaste, ScanLine } from "lucide-react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";

/** Where the payment goes: typed, pasted from the clipboard or scanned. */
export function DestinationField({
  value,
  onChange,
  onPaste,
}: {
  value: string;
  onChange: (text: string) => void;
  onPaste: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      <label htmlFor="send-address">{t("send.destination")}</label>
      <div className="input-with-actions">
        <input
          id="send-address"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <button type="button" className="button button-small" onClick={onPaste}>
          <ClipboardPaste aria-hidden="true" size={18} />
          {t("send.paste")}
        </button>
        <Link href="/scanner" className="button button-small">
          <ScanLine aria-hidden="true" size={18} />
          {t("send.scan")}
        </Link>
      </div>
    </>
  );
}
