import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { Form, TextField } from "../../ui/form";
import { parsePaymentRequest } from "../../ui/incoming";

/**
 * A field to paste a withdraw link (LNURL-withdraw) into: read by the same parser as a scanned code, then
 * opened on this screen as a scanned one is; anything else is refused in words.
 */
export function PasteLink() {
  const { t } = useI18n();
  const { network } = useWalletConfig();
  const [, navigate] = useLocation();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const open = () => {
    let lnurl: string | null = null;
    try {
      const r = parsePaymentRequest(text.trim(), network);
      lnurl = r.lnurl !== null && r.lightning_address === null && !r.is_lnurl_auth ? r.lnurl : null;
    } catch {
      lnurl = null;
    }
    if (lnurl === null) return setProblem(t("redeem.error_not_withdraw"));
    setProblem(null);
    navigate(`/redeem?lnurl=${encodeURIComponent(lnurl)}`);
  };

  return (
    <Form onSubmit={open}>
      <TextField
        id="redeem-link"
        label={t("redeem.paste_label")}
        value={text}
        onValue={(v) => {
          setText(v);
          setProblem(null);
        }}
        placeholder="LNURL1…"
        problem={problem}
      />
      <p className="hint">{t("redeem.paste_hint")}</p>
      <div className="row">
        <button type="submit" className="button button-primary" disabled={text.trim() === ""}>
          {t("common.continue")}
        </button>
        <Link href="/scanner" className="button">
          {t("nav.scan")}
        </Link>
      </div>
    </Form>
  );
}
