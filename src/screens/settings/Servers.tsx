import { useState } from "react";
import { BUILD_DEFAULTS } from "../../build";
import { defaultSelfHosted, type Servers, serverDefaults } from "../../config";
import { useI18n } from "../../i18n/intl";
import {
  SERVER_FIELDS,
  type ServerErrors,
  saveSelfHosted,
  saveServers,
  validateServers,
} from "../../settings/servers";
import { Screen } from "../../ui/Screen";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { useView, useWallet } from "../../ui/wallet";

/**
 * The servers the wallet talks to. Saved as local settings of this device; the wallet then reloads so
 * that it starts with them (and the page's connection policy names them). A new lightning service is
 * asked first (change_lsp) while the lightning node runs: one that does not answer is not saved. The owner
 * who runs them says so (the `selfhosted` setting), and home shows no shutdown warning.
 */
export function ServersSettings() {
  const { t } = useI18n();
  const config = useWalletConfig();
  const client = useWallet();
  const lightning = useView("live")?.lightning;
  const defaults = serverDefaults(localStorage, config.network, BUILD_DEFAULTS);
  const [values, setValues] = useState<Servers>(config.servers ?? defaults);
  const [selfHosted, setSelfHosted] = useState(config.selfHosted ?? false);
  const [errors, setErrors] = useState<ServerErrors>({});
  const { busy, error, setError, run } = useAction();
  const current = config.servers ?? defaults;

  const submit = () => {
    const found = validateServers(values, defaults);
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    const lspChanged = (["lsp", "lsps_connection_string", "lsps_token"] as const).some(
      (f) => values[f].trim() !== current[f].trim(),
    );
    return run(
      async () => {
        // The node answers once started; with it off (safe mode, a failure) the settings are only stored.
        if (lspChanged && (lightning === "ready" || lightning === "starting"))
          await client.dispatch({
            _tag: "ChangeLsp",
            lsp: values.lsp,
            connectionString: values.lsps_connection_string,
            token: values.lsps_token,
          });
        saveServers(localStorage, values, defaults);
        saveSelfHosted(localStorage, selfHosted, defaultSelfHosted(config.network, BUILD_DEFAULTS));
        client.stop();
        // A fresh start reads the new settings (and names them in the connection policy).
        location.assign("/");
      },
      { stayBusy: true },
    );
  };

  return (
    <Screen title={t("settings.servers")} caption={t("settings.servers.caption")}>
      <Form onSubmit={submit} noValidate>
        {SERVER_FIELDS.map((field) => (
          <div className="column" key={field}>
            {field === "lsp" ? <p>{t("settings.servers.lightning_caption")}</p> : null}
            <TextField
              id={`server-${field}`}
              label={t(`settings.servers.${field}`)}
              type={field === "lsps_token" ? "password" : "text"}
              value={values[field]}
              problem={errors[field] ? t(errors[field]) : null}
              problemClass="error-text"
              onValue={(value) => setValues({ ...values, [field]: value })}
            />
          </div>
        ))}
        <label className="check-row">
          <input type="checkbox" checked={selfHosted} onChange={(e) => setSelfHosted(e.target.checked)} />
          {t("settings.servers.selfhosted")}
        </label>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.saving") : t("settings.servers.save")}
        </button>
      </Form>
    </Screen>
  );
}
