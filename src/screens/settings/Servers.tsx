import { useState } from "react";
import { BUILD_DEFAULTS } from "../../build";
import { type Servers, serverDefaults } from "../../config";
import { useI18n } from "../../i18n/intl";
import { SERVER_FIELDS, type ServerErrors, saveServers, validateServers } from "../../settings/servers";
import { BackControl } from "../../ui/BackControl";
import { useWalletConfig } from "../../ui/config";
import { useWallet } from "../../ui/wallet";

/**
 * The servers the wallet talks to. Saved as local settings of this device; the wallet then reloads so
 * that it starts with them (and the page's connection policy names them).
 */
export function ServersSettings() {
  const { t } = useI18n();
  const config = useWalletConfig();
  const client = useWallet();
  const defaults = serverDefaults(localStorage, config.network, BUILD_DEFAULTS);
  const [values, setValues] = useState<Servers>(config.servers ?? defaults);
  const [errors, setErrors] = useState<ServerErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = validateServers(values, defaults);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    saveServers(localStorage, values, defaults);
    client.stop();
    // A fresh start reads the new settings (and names them in the connection policy).
    location.assign("/");
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.servers")}</h1>
      <p>{t("settings.servers.caption")}</p>
      <form className="column" onSubmit={submit} noValidate>
        {SERVER_FIELDS.map((field) => (
          <div className="column" key={field}>
            {field === "lsp" ? <p>{t("settings.servers.lightning_caption")}</p> : null}
            <label htmlFor={`server-${field}`}>{t(`settings.servers.${field}`)}</label>
            <input
              id={`server-${field}`}
              type={field === "lsps_token" ? "password" : "text"}
              autoComplete="off"
              spellCheck={false}
              value={values[field]}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `server-${field}-error` : undefined}
              onChange={(e) => setValues({ ...values, [field]: e.target.value })}
            />
            {errors[field] ? (
              <p id={`server-${field}-error`} className="error-text" role="alert">
                {t(errors[field])}
              </p>
            ) : null}
          </div>
        ))}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.saving") : t("settings.servers.save")}
        </button>
      </form>
    </main>
  );
}
