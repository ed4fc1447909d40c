import { useState } from "react";
import { BUILD_DEFAULTS } from "../../build";
import { resolveNostrServers } from "../../config";
import { useI18n } from "../../i18n/intl";
import {
  type NostrServerErrors,
  type NostrServerForm,
  nostrFormOf,
  saveNostrServers,
  validateNostrServers,
} from "../../settings/nostr";
import { useWalletConfig } from "../../ui/config";
import { useWallet } from "../../ui/wallet";

const NONE = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };

const FIELDS: readonly { readonly name: keyof NostrServerForm; readonly key: string }[] = [
  { name: "relays", key: "nostr_keys.relays" },
  { name: "primal_api", key: "nostr_keys.primal" },
  { name: "blossom", key: "nostr_keys.blossom" },
];

/**
 * The nostr servers (relays, the profile cache service, the media server), saved as this device's settings;
 * the wallet then starts again with them.
 */
export function NostrServersForm() {
  const { t } = useI18n();
  const client = useWallet();
  const config = useWalletConfig();
  const defaults = resolveNostrServers(NONE, config.network, config.esplora, BUILD_DEFAULTS);
  const [values, setValues] = useState<NostrServerForm>(nostrFormOf(config.nostr ?? defaults));
  const [errors, setErrors] = useState<NostrServerErrors>({});

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = validateNostrServers(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    saveNostrServers(localStorage, values, defaults);
    client.stop();
    location.assign("/settings/nostrkeys");
  };

  return (
    <form className="card column" aria-labelledby="nostr-servers" onSubmit={submit} noValidate>
      <h2 id="nostr-servers">{t("nostr_keys.servers_title")}</h2>
      {FIELDS.map((f) => (
        <div key={f.name} className="column">
          <label htmlFor={`nostr-${f.name}`}>{t(f.key)}</label>
          <input
            id={`nostr-${f.name}`}
            value={values[f.name]}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors[f.name] ? true : undefined}
            aria-describedby={errors[f.name] ? `nostr-${f.name}-error` : undefined}
            onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
          />
          {errors[f.name] ? (
            <p id={`nostr-${f.name}-error`} className="error-box" role="alert">
              {t(errors[f.name] ?? "")}
            </p>
          ) : null}
        </div>
      ))}
      <button type="submit" className="button">
        {t("nostr_keys.save_servers")}
      </button>
    </form>
  );
}
