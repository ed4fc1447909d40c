import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import { ConfirmDialog, Dialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useToast } from "../../ui/toast";
import { useWallet } from "../../ui/wallet";

/** The host and favicon of an LNURL-auth request, or null when the URL cannot be read. */
const siteOf = (lnurl: string): { host: string; favicon: string } | null => {
  try {
    const url = new URL(lnurl);
    return { host: url.host, favicon: `${url.origin}/favicon.ico` };
  } catch {
    return null;
  }
};

/**
 * Home's query parameters (spec 1 §2): lnurlauth opens the login dialog; invoice and token go to the
 * send screen; lsps asks to confirm the lightning service's connection string.
 */
export function HomeRequests() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const toast = useToast();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const lnurlauth = params.get("lnurlauth");
  const invoice = params.get("invoice") ?? params.get("token");
  const lsps = params.get("lsps");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [iconFailed, setIconFailed] = useState(false);

  useEffect(() => {
    if (invoice) navigate(`/send?to=${encodeURIComponent(invoice)}`, { replace: true });
  }, [invoice, navigate]);

  const clear = () => navigate("/", { replace: true });
  const site = lnurlauth ? siteOf(lnurlauth) : null;

  return (
    <>
      <Dialog open={lnurlauth !== null} title={t("lnurl_auth.title")} onClose={clear}>
        <div className="column">
          {site ? (
            <p className="row">
              {iconFailed ? null : (
                <img src={site.favicon} alt="" width={32} height={32} onError={() => setIconFailed(true)} />
              )}
              <strong data-testid="lnurl-auth-host">{site.host}</strong>
            </p>
          ) : null}
          <p>{t("lnurl_auth.text")}</p>
          <ErrorBox text={error} />
          <div className="row">
            <button type="button" className="button" onClick={clear}>
              {t("lnurl_auth.decline")}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={busy || !lnurlauth}
              onClick={async () => {
                if (!lnurlauth) return;
                setBusy(true);
                setError(null);
                try {
                  const r = await client.dispatch({ _tag: "LnurlAuth", lnurl: lnurlauth });
                  toast({ title: t("lnurl_auth.logged_in", { domain: r.domain }) });
                  clear();
                } catch (e) {
                  setError(errorText(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t("lnurl_auth.login")}
            </button>
          </div>
        </div>
      </Dialog>
      <ConfirmDialog
        open={lsps !== null}
        title={t("home.lsps_title")}
        message={t("home.lsps_text", { value: lsps ?? "" })}
        onConfirm={clear}
        onCancel={clear}
      />
    </>
  );
}
