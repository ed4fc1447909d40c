import type { Servers } from "../config";
import { type KeyValueStorage, storageKey } from "./local";

/** The fields of the servers page, in the order shown. */
export const SERVER_FIELDS = [
  "lsp",
  "lsps_connection_string",
  "lsps_token",
  "proxy",
  "esplora",
  "rgs",
  "storage",
  "tower",
] as const satisfies readonly (keyof Servers)[];
export type ServerField = (typeof SERVER_FIELDS)[number];

/** Problems by field, each an i18n key. */
export type ServerErrors = Partial<Record<ServerField, string>>;

const REQUIRED: readonly ServerField[] = ["proxy", "esplora", "rgs", "storage"];
const PROTOCOLS: Partial<Record<ServerField, readonly string[]>> = {
  lsp: ["http:", "https:"],
  proxy: ["ws:", "wss:"],
  esplora: ["http:", "https:"],
  rgs: ["http:", "https:"],
  storage: ["http:", "https:"],
  tower: ["http:", "https:"],
};
const K = "settings.servers";

/** The host of a URL, or of an LSPS connection string (`pubkey@host:port`); null when unreadable. */
const hostOf = (field: ServerField, value: string): string | null => {
  if (field === "lsps_connection_string") {
    const at = value.lastIndexOf("@");
    const hostPort = at >= 0 ? value.slice(at + 1) : value;
    return hostPort.replace(/:\d+$/, "").toLowerCase() || null;
  }
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return null;
  }
};

const isOnion = (field: ServerField, value: string) => /\.onion\.?$/.test(hostOf(field, value) ?? "");

/**
 * The rules of spec 2 §5: proxy, esplora, rgs and storage are required; none may be an onion address
 * unless it is that field's default; the lightning server is either the lsp, or a connection string with
 * its token, never both, and one of them is required.
 */
export const validateServers = (values: Servers, defaults: Servers): ServerErrors => {
  const errors: ServerErrors = {};
  for (const field of SERVER_FIELDS) {
    const value = values[field].trim();
    if (value === "") {
      if (REQUIRED.includes(field)) errors[field] = `${K}.error_required`;
      continue;
    }
    const protocols = PROTOCOLS[field];
    if (protocols) {
      let url: URL | null = null;
      try {
        url = new URL(value);
      } catch {
        url = null;
      }
      if (!url || !protocols.includes(url.protocol)) {
        errors[field] = `${K}.error_url`;
        continue;
      }
    }
    if (isOnion(field, value) && value !== defaults[field]) errors[field] = `${K}.error_tor`;
  }
  const lightning = lightningServerProblem(values);
  if (lightning) errors[lightning.field] ??= lightning.key;
  return errors;
};

/**
 * Spec 2's rule for the lightning server: the lsp, or a connection string with its token, never both, and
 * one of them is required. The field at fault and the catalogue key, or null when the rule holds.
 */
export const lightningServerProblem = (
  values: Pick<Servers, "lsp" | "lsps_connection_string" | "lsps_token">,
): { readonly field: ServerField; readonly key: string } | null => {
  const lsp = values.lsp.trim() !== "";
  const conn = values.lsps_connection_string.trim() !== "";
  const token = values.lsps_token.trim() !== "";
  if (lsp && (conn || token)) return { field: "lsp", key: `${K}.lsps_valid_error` };
  if (!lsp && conn !== token)
    return { field: conn ? "lsps_token" : "lsps_connection_string", key: `${K}.lsps_valid_error` };
  if (!lsp && !conn) return { field: "lsp", key: `${K}.error_lsp` };
  return null;
};

/**
 * Stores the servers as local settings: a value equal to its default is removed, any other is stored
 * (an empty string meaning none). Call only with values `validateServers` accepted.
 */
export const saveServers = (storage: KeyValueStorage, values: Servers, defaults: Servers): void => {
  for (const field of SERVER_FIELDS) {
    const value = values[field].trim();
    if (value === defaults[field]) storage.removeItem(storageKey(field));
    else storage.setItem(storageKey(field), value);
  }
};

/** Stores the `selfhosted` setting, removed when it is the network's default (spec 1 §3 local settings). */
export const saveSelfHosted = (storage: KeyValueStorage, value: boolean, byDefault: boolean): void => {
  if (value === byDefault) storage.removeItem(storageKey("selfhosted"));
  else storage.setItem(storageKey("selfhosted"), String(value));
};
