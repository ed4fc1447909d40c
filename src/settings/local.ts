/**
 * Settings of this device kept in local storage under `USER_SETTINGS_` keys (spec 1 §3). An empty stored
 * string means unset; whatever writes one must remove a value equal to its default.
 */
export const LOCAL_SETTING_NAMES = [
  "network",
  "proxy",
  "esplora",
  "rgs",
  "lsp",
  "lsps_connection_string",
  "lsps_token",
  "auth",
  "subscriptions",
  "storage",
  "tower",
  "scorer",
  "selfhosted",
  "primal_api",
  "blind_auth",
  "hermes",
  // Beyond the spec's list: the nostr relays (comma-separated) and the Blossom media server.
  "nostr_relays",
  "blossom",
] as const;
export type LocalSettingName = (typeof LOCAL_SETTING_NAMES)[number];

export const storageKey = (name: LocalSettingName) => `USER_SETTINGS_${name}`;

/** The minimal storage this needs; `localStorage` in the browser. */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export const readLocalSetting = (storage: KeyValueStorage, name: LocalSettingName): string | null => {
  const v = storage.getItem(storageKey(name));
  return v === null || v === "" ? null : v;
};
