/**
 * What a self-hosted build's services publish of themselves at `<services>/.well-known/wallet-services.json`
 * (services/app.ts): the community's nostr relays, its wallet-connect relay, its Blossom media server and its
 * price feed. The wallet takes them as its defaults on the build's network (the owner's own settings stay
 * over them). The answer is input: read within a few seconds, at most a few kilobytes, and only the fields
 * of the right shape kept. The last good answer is kept on this device, so only a first visit waits for it.
 */
import type { KeyValueStorage } from "./local";

export const PUBLISHED_PATH = "/.well-known/wallet-services.json";
const KEY = "SERVICES_PUBLISHED";
const TIMEOUT_MS = 4_000;
const MAX_BYTES = 16_000;

export interface Published {
  readonly relays?: readonly string[];
  readonly nwcRelay?: string;
  readonly blossom?: string;
  readonly priceFeed?: string;
}

const isUrl = (v: unknown, schemes: RegExp): v is string => {
  if (typeof v !== "string" || v.length > 500 || !schemes.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
};

/** The fields of `raw` (the services' JSON) of the right shape; anything else dropped. */
export const parsePublished = (raw: unknown): Published => {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const o = raw as Record<string, unknown>;
  const ws = /^wss?:\/\//;
  const http = /^https?:\/\//;
  const relays = Array.isArray(o.relays) ? o.relays.filter((r) => isUrl(r, ws)).slice(0, 10) : [];
  return {
    ...(relays.length > 0 ? { relays } : {}),
    ...(isUrl(o.nwc_relay, ws) ? { nwcRelay: o.nwc_relay } : {}),
    ...(isUrl(o.blossom, http) ? { blossom: o.blossom } : {}),
    ...(isUrl(o.price_feed, http) ? { priceFeed: o.price_feed } : {}),
  };
};

/** What this device kept of the services' last answer. */
export const readPublished = (storage: KeyValueStorage): Published => {
  try {
    return parsePublished(JSON.parse(storage.getItem(KEY) ?? "null"));
  } catch {
    return {};
  }
};

const fetchPublished = async (base: string, storage: KeyValueStorage): Promise<void> => {
  try {
    const r = await fetch(`${base}${PUBLISHED_PATH}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!r.ok) return;
    const text = await r.text();
    if (text.length > MAX_BYTES) return;
    const published = JSON.parse(text) as Record<string, unknown>;
    storage.setItem(KEY, JSON.stringify(published));
  } catch {
    // Offline, or services that publish nothing: the wallet keeps what it had, or its own defaults.
  }
};

/**
 * Reads what the services publish: awaited when this device has nothing of theirs yet, else refreshed in the
 * background for the next start. Nothing without services (`base` null).
 */
export const loadPublished = async (base: string | null, storage: KeyValueStorage): Promise<void> => {
  if (!base) return;
  const fetched = fetchPublished(base, storage);
  if (storage.getItem(KEY) === null) await fetched;
};
