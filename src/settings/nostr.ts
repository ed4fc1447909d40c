/**
 * The nostr servers as this device's settings: the relays (`nostr_relays`, comma-separated), the
 * social-profile cache service (`primal_api`: empty means none, spec: 'Missing PRIMAL_API environment
 * variable') and the Blossom media server (`blossom`). A value equal to its default is removed.
 */
import type { NostrServers } from "../config";
import { type KeyValueStorage, storageKey } from "./local";

export interface NostrServerForm {
  readonly relays: string;
  readonly primal_api: string;
  readonly blossom: string;
}

export type NostrServerErrors = Partial<Record<keyof NostrServerForm, string>>;

export const nostrFormOf = (s: NostrServers): NostrServerForm => ({
  relays: s.relays.join(", "),
  primal_api: s.primal,
  blossom: s.blossom,
});

const relayList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((r) => r.trim())
    .filter((r) => r !== "");

const urlWith = (text: string, protocols: readonly string[]): boolean => {
  try {
    return protocols.includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** Relays: one or more ws(s) URLs; the cache service: empty or an http(s) URL; the media server: an http(s) URL. */
export const validateNostrServers = (form: NostrServerForm): NostrServerErrors => {
  const errors: NostrServerErrors = {};
  const relays = relayList(form.relays);
  if (relays.length === 0 || relays.length > 20 || !relays.every((r) => urlWith(r, ["ws:", "wss:"])))
    errors.relays = "nostr_keys.error_relays";
  const primal = form.primal_api.trim();
  if (primal !== "" && !urlWith(primal, ["http:", "https:"])) errors.primal_api = "nostr_keys.error_url";
  if (!urlWith(form.blossom.trim(), ["http:", "https:"])) errors.blossom = "nostr_keys.error_url";
  return errors;
};

/** Stores a form `validateNostrServers` accepted: values equal to their defaults are removed. */
export const saveNostrServers = (
  storage: KeyValueStorage,
  form: NostrServerForm,
  defaults: NostrServers,
): void => {
  const relays = relayList(form.relays).join(",");
  const put = (name: "nostr_relays" | "primal_api" | "blossom", value: string, fallback: string) => {
    if (value === fallback) storage.removeItem(storageKey(name));
    else storage.setItem(storageKey(name), value);
  };
  put("nostr_relays", relays, defaults.relays.join(","));
  put("primal_api", form.primal_api.trim(), defaults.primal);
  put("blossom", form.blossom.trim().replace(/\/$/, ""), defaults.blossom);
};
