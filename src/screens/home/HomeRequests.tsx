import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { BUILD_DEFAULTS } from "../../build";
import { serverDefaults } from "../../config";
import { useI18n } from "../../i18n/intl";
import { saveServers } from "../../settings/servers";
import { useWalletConfig } from "../../ui/config";
import { ConfirmDialog } from "../../ui/Dialog";
import { useErrorText } from "../../ui/errors";
import { useAction } from "../../ui/form";
import { useToast } from "../../ui/toast";
import { useWallet } from "../../ui/wallet";

/**
 * Home's query parameters (spec 1 §2): lnurlauth opens the login dialog; invoice and token go to the
 * send screen; lsps (with its token) asks to confirm the lightning service's connection string, then
 * switches to it (change_lsp) and keeps it in this device's settings.
 */
export function HomeRequests() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const toast = useToast();
  const config = useWalletConfig();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const lnurlauth = params.get("lnurlauth");
  const lsps = params.get("lsps");
  // Beside lsps, token is the lightning service's token, not something to pay.
  const invoice = params.get("invoice") ?? (lsps === null ? params.get("token") : null);
  const lspsToken = lsps === null ? "" : (params.get("token") ?? "");
  const switching = useAction();
  const login = useAction();
  const setError = login.setError;
  // The domain a login signs for, as the worker's one parser reads it (a URL or a bech32 LNURL alike).
  const [site, setSite] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    setSite(null);
    if (!lnurlauth) return;
    let current = true;
    client
      .dispatch({ _tag: "DecodeLnurl", lnurl: lnurlauth })
      .then((o) => {
        if (!current) return;
        if (o.tag === "login") setSite(o.domain);
        else setError(t("lnurl.error_unsupported"));
      })
      .catch((e) => current && setError(errorText(e)));
    return () => {
      current = false;
    };
  }, [lnurlauth, client, t]);

  useEffect(() => {
    if (invoice) navigate(`/send?to=${encodeURIComponent(invoice)}`, { replace: true });
  }, [invoice, navigate]);

  // A wallet-connect authorization request goes to the connections page's create-from-request form.
  const nwa = params.get("nwa");
  useEffect(() => {
    if (nwa) navigate(`/settings/connections?nwa=${encodeURIComponent(nwa)}`, { replace: true });
  }, [nwa, navigate]);

  const clear = () => {
    switching.setError(null);
    navigate("/", { replace: true });
  };

  const logIn = () => {
    if (!lnurlauth) return;
    return login.run(async () => {
      const r = await client.dispatch({ _tag: "LnurlAuth", lnurl: lnurlauth });
      toast({ title: t("lnurl_auth.logged_in", { domain: r.domain }) });
      clear();
    });
  };

  const connectLsps = () => {
    if (!lsps) return;
    return switching.run(async () => {
      await client.dispatch({ _tag: "ChangeLsp", lsp: "", connectionString: lsps, token: lspsToken });
      const defaults = serverDefaults(localStorage, config.network, BUILD_DEFAULTS);
      saveServers(
        localStorage,
        { ...(config.servers ?? defaults), lsp: "", lsps_connection_string: lsps, lsps_token: lspsToken },
        defaults,
      );
      toast({ title: t("home.lsps_saved") });
      clear();
    });
  };

  return (
    <>
      <ConfirmDialog
        open={lnurlauth !== null}
        title={t("lnurl_auth.title")}
        error={login.error}
        cancelLabel={t("lnurl_auth.decline")}
        confirmLabel={t("lnurl_auth.login")}
        busy={login.busy || !lnurlauth || !site}
        onCancel={clear}
        onConfirm={logIn}
      >
        {site ? (
          <p className="row">
            <strong data-testid="lnurl-auth-host">{site}</strong>
          </p>
        ) : null}
        <p>{t("lnurl_auth.text")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={lsps !== null}
        title={t("home.lsps_title")}
        error={switching.error}
        busy={switching.busy || !lsps}
        onCancel={clear}
        onConfirm={connectLsps}
      >
        <p>{t("home.lsps_text", { value: lsps ?? "" })}</p>
      </ConfirmDialog>
    </>
  );
}
