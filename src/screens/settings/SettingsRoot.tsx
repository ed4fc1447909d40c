import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { useView } from "../../ui/wallet";
import { ROUTES_BUILT } from "../routes";

interface Item {
  readonly path: string;
  readonly key: string;
  readonly needsBackup?: boolean;
}

const GROUPS: readonly { readonly key: string; readonly items: readonly Item[] }[] = [
  {
    key: "settings.general",
    items: [
      { path: "/settings/lightningaddress", key: "settings.lightningaddress" },
      { path: "/settings/channels", key: "settings.channels" },
      { path: "/settings/backup", key: "settings.backup" },
      { path: "/settings/restore", key: "settings.restore" },
      { path: "/settings/encrypt", key: "settings.encrypt", needsBackup: true },
      { path: "/settings/servers", key: "settings.servers" },
      { path: "/settings/connections", key: "settings.connections.title" },
      { path: "/settings/federations", key: "federations.title" },
    ],
  },
  {
    key: "settings.appearance",
    items: [
      { path: "/settings/currency", key: "settings.currency" },
      { path: "/settings/language", key: "settings.language" },
    ],
  },
  { key: "settings.social", items: [{ path: "/settings/nostrkeys", key: "settings.nostr_keys" }] },
  {
    key: "settings.debug",
    items: [
      { path: "/settings/emergencykit", key: "settings.emergency_kit" },
      { path: "/settings/admin", key: "settings.admin" },
      { path: "/feedback", key: "settings.feedback" },
    ],
  },
];

/** Settings root: the Plus call to action, then four groups. Encrypt waits for a backup; pages of later releases show as such. */
export function SettingsRoot() {
  const { t } = useI18n();
  const wallet = useView("wallet");
  const member = useView("plus")?.mutiny_plus ?? false;
  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.title")}</h1>
      {/* The call to action changes with membership (spec 1 roles). */}
      <Link href="/settings/plus" className={member ? "plus-cta member" : "plus-cta"}>
        <strong>{member ? t("settings.plus.cta_member") : t("settings.plus.cta_join")}</strong>
        {member ? t("settings.plus.cta_member_caption") : t("settings.plus.cta_join_caption")}
      </Link>
      {GROUPS.map((g) => (
        <section key={g.key} className="settings-group" aria-labelledby={g.key}>
          <h2 id={g.key}>{t(g.key)}</h2>
          <ul>
            {g.items.map((i) => {
              const built = ROUTES_BUILT.includes(i.path);
              const blocked = i.needsBackup && !wallet?.has_backed_up;
              return (
                <li key={i.path}>
                  {built && !blocked ? (
                    <Link href={i.path} className="settings-item">
                      {t(i.key)}
                    </Link>
                  ) : (
                    <span className="settings-item disabled" aria-disabled="true">
                      {t(i.key)}
                      <small>{blocked ? t("settings.needs_backup") : t("settings.not_yet")}</small>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      <p className="version">{t("settings.version", { version: __APP_VERSION__ })}</p>
    </main>
  );
}
