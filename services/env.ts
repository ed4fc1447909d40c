/** The services' configuration from environment variables (docs/deploy.md lists them), checked at start. */
import { hex } from "@scure/base";
import { NETWORKS, type Network } from "../src/events/types";
import type { ServicesConfig } from "./app";
import { DEFAULT_PER_CLIENT, LIGHTNING_PORT, parseTrustedProxies } from "./proxy";

/** Each network's public Esplora API; regtest has none (a local world's must be given). */
const PUBLIC_ESPLORA: Partial<Record<Network, string>> = {
  bitcoin: "https://mempool.space/api",
  testnet: "https://mempool.space/testnet/api",
  signet: "https://mempool.space/signet/api",
};

/** Each network's public LSP the wallet may use through `/lsp`, when `LSP_URL` is unset (the wallet's own defaults). */
const PUBLIC_LSP: Partial<Record<Network, string>> = {
  bitcoin: "https://0conf.lnolymp.us",
};

/** Well-known relays, when `RELAYS` is unset. */
const DEFAULT_RELAYS = ["wss://relay.damus.io", "wss://nos.lol"];

/** What one key may keep in storage unless told: far above a wallet's channel state. */
const DEFAULT_QUOTA_MB = 64;

export class ConfigProblem extends Error {}

/** Every setting the services read (docs/deploy.md's table lists exactly these). */
export const SETTINGS = [
  "NETWORK",
  "PORT",
  "HOST",
  "DATABASE_URL",
  "DATA_DIR",
  "ALLOW_MEMORY_STORE",
  "ESPLORA_URL",
  "PROXY_PORTS",
  "PROXY_PER_CLIENT",
  "PROXY_ALLOW_PRIVATE",
  "TRUSTED_PROXIES",
  "LSP_URL",
  "GOSSIP_PEERS",
  "RELAYS",
  "NWC_RELAY",
  "BLOSSOM_URL",
  "PRICE_FEED_URL",
  "PLUS_NWC",
  "PLUS_PRICE_SATS",
  "HERMES_SECRET",
  "RATE_LIMIT_SCALE",
  "STORAGE_QUOTA_MB",
] as const;

/** Settings whose values are secret: the start-up summary says only whether they are set. */
const SECRET = new Set(["HERMES_SECRET"]);

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
};

/** The setting `name` is probably a misspelling of, or null when it looks like none of ours. */
export const misspelled = (name: string): string | null => {
  if ((SETTINGS as readonly string[]).includes(name)) return null;
  const head = name.split("_")[0];
  const near = SETTINGS.filter(
    (s) =>
      (s.length >= 6 && distance(s, name) <= 2) ||
      (s.includes("_") && s.split("_")[0] === head && distance(s, name) <= 5),
  ).sort((a, b) => distance(a, name) - distance(b, name));
  return near[0] ?? null;
};

/** `url` with its password, and a wallet-connect URI's secret, masked. */
const masked = (v: string): string =>
  v.replace(/^([a-z+]+:\/\/[^:/@]*:)[^@]*@/i, "$1***@").replace(/([?&]secret=)[^&]*/g, "$1***");

/** The settings in force, for the start-up line: what was set (secrets masked) and the defaults taken. */
export const settingsSummary = (
  env: Record<string, string | undefined>,
  config: ServicesConfig,
): Record<string, unknown> => {
  const given: Record<string, string> = {};
  for (const name of SETTINGS) {
    const v = env[name];
    if (v !== undefined) given[name] = SECRET.has(name) ? "(set)" : masked(v);
  }
  return {
    settings: given,
    network: config.network,
    database: config.databaseUrl
      ? `PostgreSQL ${masked(config.databaseUrl)}`
      : config.dataDir
        ? `embedded, in ${config.dataDir}`
        : "embedded, in memory (lost when the process stops)",
    esplora: config.esploraUrl,
    lsp: config.lspUrl ?? null,
    relays: config.relays,
    gossip_peers: config.gossipPeers.length,
    plus: config.plus ? `sold at ${config.plus.plans[0]?.amount_sat} sats` : "not sold",
    proxy_ports: config.proxy.ports ? [...config.proxy.ports] : "any",
    proxy_per_client: config.proxy.maxPerClient,
  };
};

const list = (v: string | undefined): string[] =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

const url = (name: string, v: string, protocols: readonly string[]): string => {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigProblem(`${name} is not a URL: ${v}`);
  }
  if (!protocols.includes(u.protocol))
    throw new ConfigProblem(`${name} must be ${protocols.join(" or ")}: ${v}`);
  return v.replace(/\/+$/, "");
};

export const configFromEnv = (
  env: Record<string, string | undefined>,
  warn: (message: string) => void = console.warn,
): ServicesConfig => {
  for (const name of Object.keys(env)) {
    const meant = misspelled(name);
    if (meant) throw new ConfigProblem(`${name} is not a setting of the services: did you mean ${meant}?`);
  }
  const network = (env.NETWORK ?? "bitcoin") as Network;
  if (!NETWORKS.includes(network)) throw new ConfigProblem(`NETWORK must be one of ${NETWORKS.join(", ")}`);
  const esplora = env.ESPLORA_URL ?? PUBLIC_ESPLORA[network];
  if (!esplora) throw new ConfigProblem(`ESPLORA_URL is required on ${network}`);
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigProblem("PORT must be a port number");
  const ports = list(env.PROXY_PORTS).map(Number);
  if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65_535))
    throw new ConfigProblem("PROXY_PORTS must be port numbers, comma-separated");
  const perClient = Number(env.PROXY_PER_CLIENT ?? DEFAULT_PER_CLIENT);
  if (!Number.isInteger(perClient) || perClient < 1)
    throw new ConfigProblem("PROXY_PER_CLIENT must be a whole number of connections");
  const trustedProxies = env.TRUSTED_PROXIES ? parseTrustedProxies(env.TRUSTED_PROXIES) : null;
  if (env.TRUSTED_PROXIES && !trustedProxies)
    throw new ConfigProblem("TRUSTED_PROXIES must be addresses or networks (10.0.0.0/8), comma-separated");
  const lsp = env.LSP_URL ?? PUBLIC_LSP[network];
  if (env.PLUS_NWC && !/^nostr\+walletconnect:\/\/[0-9a-f]{64}\?/.test(env.PLUS_NWC))
    throw new ConfigProblem("PLUS_NWC must be a nostr+walletconnect URI");
  const price = Number(env.PLUS_PRICE_SATS ?? 5_000);
  if (!Number.isInteger(price) || price < 1)
    throw new ConfigProblem("PLUS_PRICE_SATS must be a whole number of sats");
  const rateLimitScale = Number(env.RATE_LIMIT_SCALE ?? 1);
  if (!Number.isFinite(rateLimitScale) || rateLimitScale < 0)
    throw new ConfigProblem("RATE_LIMIT_SCALE must be a number, 0 or more (0: no rate limits)");
  const quotaMb = Number(env.STORAGE_QUOTA_MB ?? DEFAULT_QUOTA_MB);
  if (!Number.isFinite(quotaMb) || quotaMb < 0)
    throw new ConfigProblem("STORAGE_QUOTA_MB must be a number of megabytes, 0 or more (0: no quota)");
  const relays = list(env.RELAYS).map((r) => url("RELAYS", r, ["wss:", "ws:"]));
  let hermesSecret: Uint8Array;
  if (env.HERMES_SECRET) {
    if (!/^[0-9a-f]{64}$/i.test(env.HERMES_SECRET))
      throw new ConfigProblem("HERMES_SECRET must be 64 hex digits");
    hermesSecret = hex.decode(env.HERMES_SECRET.toLowerCase());
  } else {
    hermesSecret = crypto.getRandomValues(new Uint8Array(32));
    warn("HERMES_SECRET is unset: the lightning-address service signs with a key of this process only.");
  }
  // The embedded database keeps its files in DATA_DIR (./data) unless told `memory`; a regtest world's
  // services keep theirs in memory unless told a directory.
  const dataDir = env.DATA_DIR ?? (network === "regtest" ? "memory" : "./data");
  const allowMemory = env.ALLOW_MEMORY_STORE === "1" || env.ALLOW_MEMORY_STORE === "true";
  if (!env.DATABASE_URL && dataDir === "memory" && network !== "regtest" && !allowMemory)
    throw new ConfigProblem(
      `DATA_DIR=memory would lose every wallet's channel-state backups when the process stops: on ${network} set DATABASE_URL or a DATA_DIR directory (or ALLOW_MEMORY_STORE=1 for a throwaway test)`,
    );
  if (dataDir === "") throw new ConfigProblem("DATA_DIR must be a directory or memory");
  return {
    port,
    host: env.HOST ?? "127.0.0.1",
    network,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : dataDir !== "memory" ? { dataDir } : {}),
    esploraUrl: url("ESPLORA_URL", esplora, ["https:", "http:"]),
    ...(lsp ? { lspUrl: url("LSP_URL", lsp, ["https:", "http:"]) } : {}),
    proxy: {
      ports: new Set(ports.length > 0 ? ports : [LIGHTNING_PORT]),
      allowPrivate: env.PROXY_ALLOW_PRIVATE === "1" || env.PROXY_ALLOW_PRIVATE === "true",
      maxPerClient: perClient,
      ...(trustedProxies ? { trustedProxies } : {}),
    },
    relays: relays.length > 0 ? relays : DEFAULT_RELAYS,
    ...(env.NWC_RELAY ? { nwcRelay: url("NWC_RELAY", env.NWC_RELAY, ["wss:", "ws:"]) } : {}),
    ...(env.BLOSSOM_URL ? { blossomUrl: url("BLOSSOM_URL", env.BLOSSOM_URL, ["https:", "http:"]) } : {}),
    ...(env.PRICE_FEED_URL
      ? { priceFeedUrl: url("PRICE_FEED_URL", env.PRICE_FEED_URL, ["https:", "http:"]) }
      : {}),
    gossipPeers: list(env.GOSSIP_PEERS),
    hermesSecret,
    rateLimitScale,
    ...(quotaMb > 0 ? { storageQuotaBytes: Math.round(quotaMb * 1_000_000) } : {}),
    ...(env.PLUS_NWC ? { plus: { operatorNwc: env.PLUS_NWC, plans: [{ id: 1, amount_sat: price }] } } : {}),
  };
};
