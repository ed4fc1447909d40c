import type { Network } from "./events/types";
import { NETWORKS } from "./events/types";
import { type KeyValueStorage, readLocalSetting } from "./settings/local";
import { readPublished } from "./settings/published";

/** Where the wallet talks to the chain and prices; chosen at build time or in settings. */
export interface WalletConfig {
  readonly network: Network;
  readonly esplora: string;
  /** URL template of the price feed, `{code}` replaced by the fiat code. */
  readonly priceSource: string;
  /** The WebSocket-to-TCP proxy for reaching lightning peers, or null to dial their WebSockets. */
  readonly proxy: string | null;
  /** The LSP's base URL, or null. */
  readonly lsp: string | null;
  /** The nostr relay the wallet-connect service listens on. */
  readonly nwcRelay?: string;
  /** Every server of the settings page (lsp, proxy, rgs, storage, ...), as resolved at start. */
  readonly servers?: Servers;
  /** The nostr servers: relays, the social-profile cache (`primal_api`) and the Blossom media server. */
  readonly nostr?: NostrServers;
  /** The feedback service (`POST {feedback}/v1/feedback`), or null when this build has none. */
  readonly feedback?: string | null;
  /** The membership (Plus) service, or null when unset. */
  readonly subscriptions?: string | null;
  /** The lightning-address service ('Hermes not configured' when null). */
  readonly hermes?: string | null;
  /** A server handing out a trained lightning scorer (`scorer`, a build variable), or null. */
  readonly scorer?: string | null;
  /**
   * The owner runs the servers (spec 2 §6, the `selfhosted` setting over `defaultSelfHosted`): no shutdown
   * warning on home.
   */
  readonly selfHosted?: boolean;
  /**
   * The required settings this build has no value for (`network`, `proxy`, `esplora`, `rgs`, `storage`): the
   * wallet does not start but shows `MISSING_DEFAULT`.
   */
  readonly missingDefaults?: readonly string[];
}

/** Where the wallet's nostr identity lives. An empty `primal` means none is set. */
export interface NostrServers {
  readonly relays: readonly string[];
  readonly primal: string;
  readonly blossom: string;
}

/**
 * Each network's nostr servers. Regtest points at the local world, whose one HTTP port also serves the relay
 * (`/nostr`), the cache service (`/primal`) and the media server (`/blossom`), following its Esplora URL.
 */
export const defaultNostrServers = (network: Network, esplora: string): NostrServers =>
  network === "regtest"
    ? {
        relays: [`${esplora.replace(/^http/, "ws").replace(/\/$/, "")}/nostr`],
        primal: `${esplora.replace(/\/$/, "")}/primal`,
        blossom: `${esplora.replace(/\/$/, "")}/blossom`,
      }
    : {
        relays: ["wss://relay.primal.net", "wss://relay.damus.io", "wss://nos.lol"],
        primal: DEFAULT_PRIMAL_API[network],
        blossom: "https://blossom.primal.net",
      };

/**
 * The nostr servers in use: `primal_api` and `nostr_relays` (comma-separated) and `blossom` over the
 * network's defaults; an empty stored `primal_api` means none (spec: 'Missing PRIMAL_API environment variable').
 */
export const resolveNostrServers = (
  storage: KeyValueStorage,
  network: Network,
  esplora: string,
  build: BuildDefaults = {},
): NostrServers => {
  const own = defaultNostrServers(network, esplora);
  // A self-hosted build's services publish their community's relays and media server (src/settings/published.ts).
  const published = servicesBase(build) && network === defaultNetwork(build) ? readPublished(storage) : {};
  const defaults = {
    ...own,
    relays: published.relays ?? own.relays,
    blossom: published.blossom ?? own.blossom,
  };
  const relays = (readLocalSetting(storage, "nostr_relays") ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter((r) => /^wss?:\/\//.test(r));
  return {
    relays: relays.length > 0 ? relays : defaults.relays,
    primal: resolvePrimalApi(storage, network, esplora, build),
    blossom: readLocalSetting(storage, "blossom") ?? defaults.blossom,
  };
};

/**
 * Each network's social-profile cache service: regtest's is the local world's (`<world>/primal`); off regtest
 * none is public (the build's `VITE_PRIMAL_API`, or the wallet's own services in self-hosted mode).
 */
export const DEFAULT_PRIMAL_API: { readonly [N in Network]: string } = {
  bitcoin: "",
  testnet: "",
  signet: "",
  regtest: "http://127.0.0.1:3002/primal",
};

/**
 * The cache service in use: the stored setting (an empty stored string means none), else the build's or the
 * self-hosted services' on the build's network, else the network's default; on regtest the default follows
 * the local world the owner pointed Esplora at.
 */
export const resolvePrimalApi = (
  storage: KeyValueStorage,
  network: Network,
  esplora: string,
  build: BuildDefaults = {},
): string => {
  const stored = storage.getItem("USER_SETTINGS_primal_api");
  if (stored !== null) return stored.trim();
  if (network === defaultNetwork(build)) {
    if (build.primal) return build.primal;
    const services = servicesBase(build);
    if (services) return `${services}/primal`;
  }
  if (network === "regtest" && esplora !== DEFAULT_SERVERS.regtest.esplora) return `${esplora}/primal`;
  return DEFAULT_PRIMAL_API[network];
};

/** The servers the wallet talks to (spec 2 §3 server settings). An empty string means none. */
export interface Servers {
  readonly esplora: string;
  readonly proxy: string;
  readonly rgs: string;
  readonly storage: string;
  readonly lsp: string;
  readonly lsps_connection_string: string;
  readonly lsps_token: string;
  /** The watchtower (services/tower/) that punishes a cheating partner while the wallet is closed; "" none. */
  readonly tower: string;
}

/**
 * Each network's servers unless the owner or the build chooses others. Off regtest only maintained public
 * services that speak the protocol are named (mempool.space's Esplora, LDK's rapid gossip sync server, ZEUS's
 * Olympus LSP on bitcoin); the WebSocket proxy and the storage server have no public default: a build names
 * them (`VITE_PROXY`, `VITE_STORAGE`) or its own services (`VITE_SERVICES`), else it does not start
 * (`MISSING_DEFAULT`). Regtest points at the local world (`npm start`, tests): its Esplora facade, and the
 * ports its lightning services listen on.
 */
export const DEFAULT_SERVERS: { readonly [N in Network]: Servers } = {
  bitcoin: {
    esplora: "https://mempool.space/api",
    proxy: "",
    rgs: "https://rapidsync.lightningdevkit.org/snapshot/",
    storage: "",
    lsp: "https://0conf.lnolymp.us",
    lsps_connection_string: "",
    lsps_token: "",
    tower: "",
  },
  testnet: {
    esplora: "https://mempool.space/testnet/api",
    proxy: "",
    rgs: "https://rapidsync.lightningdevkit.org/testnet/snapshot/",
    storage: "",
    lsp: "",
    lsps_connection_string: "",
    lsps_token: "",
    tower: "",
  },
  signet: {
    esplora: "https://mempool.space/signet/api",
    proxy: "",
    rgs: "",
    storage: "",
    lsp: "",
    lsps_connection_string: "",
    lsps_token: "",
    tower: "",
  },
  regtest: {
    esplora: "http://127.0.0.1:3002",
    // The local world serves the WebSocket proxy and the LSP on its Esplora port.
    proxy: "ws://127.0.0.1:3002",
    rgs: "http://127.0.0.1:3002/rgs/snapshot/",
    storage: "http://127.0.0.1:3002/storage",
    lsp: "http://127.0.0.1:3002",
    lsps_connection_string: "",
    lsps_token: "",
    tower: "http://127.0.0.1:3002/tower",
  },
};

/** The servers a wallet cannot run without; a build that leaves one without a default does not start. */
export const REQUIRED_SERVERS = ["esplora", "proxy", "rgs", "storage"] as const;

/** Spec 1 §5: what a build missing a required default (or self-hosted without a network) shows. */
export const MISSING_DEFAULT = "Missing a default setting for network or proxy";

/** The relay wallet-connect apps and the wallet meet on, outside the local world. */
export const DEFAULT_NWC_RELAY = "wss://relay.damus.io";

/** The public Esplora API of each network; regtest defaults to the local world's. */
export const DEFAULT_ESPLORA: { readonly [N in Network]: string } = {
  bitcoin: DEFAULT_SERVERS.bitcoin.esplora,
  testnet: DEFAULT_SERVERS.testnet.esplora,
  signet: DEFAULT_SERVERS.signet.esplora,
  regtest: DEFAULT_SERVERS.regtest.esplora,
};

/** What the build chose (`VITE_*` variables); each applies to the build's own network only. */
export interface BuildDefaults {
  readonly network?: string;
  readonly esplora?: string;
  readonly proxy?: string;
  readonly rgs?: string;
  readonly storage?: string;
  readonly lsp?: string;
  readonly feedback?: string;
  readonly subscriptions?: string;
  readonly hermes?: string;
  readonly scorer?: string;
  /** The social-profile cache service (`VITE_PRIMAL_API`). */
  readonly primal?: string;
  /**
   * Self-hosted mode (`VITE_SERVICES`): the URL of the wallet's own services (`npm run services`), from which
   * every server not set on its own is derived: the proxy, storage, rapid gossip sync, Esplora (the services
   * pass it on to theirs), the LSP's HTTP API (the services pass it on to the LSP they point at; its node is
   * dialled through their proxy), the lightning-address, Plus and feedback services and the profile cache.
   */
  readonly services?: string;
}

/** The self-hosted services' base URL (no trailing slash), or null when the build has none. */
export const servicesBase = (build: BuildDefaults): string | null =>
  build.services?.trim().replace(/\/+$/, "") || null;

/** The servers a self-hosted build's services serve under their one URL (`services/main.ts`). */
export const selfHostedServers = (
  base: string,
): Pick<Servers, "esplora" | "proxy" | "rgs" | "storage" | "lsp" | "tower"> => ({
  esplora: `${base}/esplora`,
  lsp: `${base}/lsp`,
  proxy: base.replace(/^http/, "ws"),
  rgs: `${base}/rgs/snapshot/`,
  storage: `${base}/storage`,
  tower: `${base}/tower`,
});

const asNetwork = (v: string | null | undefined): Network | null =>
  NETWORKS.includes(v as Network) ? (v as Network) : null;

/** The network the build defaults to: bitcoin, or what the start script chose (regtest). */
export const defaultNetwork = (build: BuildDefaults): Network => asNetwork(build.network) ?? "bitcoin";

/** A network's servers before the owner changed any. */
export const defaultServers = (network: Network, build: BuildDefaults): Servers => {
  const services = servicesBase(build);
  const base =
    services && network === defaultNetwork(build)
      ? { ...DEFAULT_SERVERS[network], ...selfHostedServers(services) }
      : DEFAULT_SERVERS[network];
  if (network !== defaultNetwork(build)) return base;
  return {
    ...base,
    esplora: build.esplora || base.esplora,
    proxy: build.proxy || base.proxy,
    rgs: build.rgs || base.rgs,
    storage: build.storage || base.storage,
    lsp: build.lsp || base.lsp,
  };
};

export const defaultEsplora = (network: Network, build: BuildDefaults): string =>
  defaultServers(network, build).esplora;

/**
 * The servers in use: each stored setting over its default. A missing setting is the default; an empty
 * stored string is "none", which only the lightning server fields may be (the others are required).
 */
export const resolveServers = (storage: KeyValueStorage, network: Network, build: BuildDefaults): Servers => {
  const defaults = serverDefaults(storage, network, build);
  const required = (name: "esplora" | "proxy" | "rgs" | "storage") =>
    readLocalSetting(storage, name) ?? defaults[name];
  const optional = (name: "lsp" | "lsps_connection_string" | "lsps_token" | "tower") => {
    const stored = storage.getItem(`USER_SETTINGS_${name}`);
    return stored === null ? defaults[name] : stored;
  };
  return {
    esplora: required("esplora").replace(/\/$/, ""),
    proxy: required("proxy"),
    rgs: required("rgs"),
    storage: required("storage"),
    lsp: optional("lsp"),
    lsps_connection_string: optional("lsps_connection_string"),
    lsps_token: optional("lsps_token"),
    tower: optional("tower"),
  };
};

/**
 * Whether a network runs on the owner's own servers unless the owner says otherwise: a self-hosted build on
 * its own network (`VITE_SERVICES`, spec 1: a self-hosted launch defaults to true), and the local world on
 * regtest (`npm start` runs every server on the owner's machine).
 */
export const defaultSelfHosted = (network: Network, build: BuildDefaults): boolean =>
  network === "regtest" || (servicesBase(build) !== null && network === defaultNetwork(build));

/** The `selfhosted` setting: stored "true" or "false" over the network's default. */
export const resolveSelfHosted = (
  storage: KeyValueStorage,
  network: Network,
  build: BuildDefaults,
): boolean => {
  const stored = readLocalSetting(storage, "selfhosted");
  return stored === "true" ? true : stored === "false" ? false : defaultSelfHosted(network, build);
};

/** The scheme, host and port of a URL (a string that is no URL is kept as it is). */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * On regtest the proxy, the LSP, the storage server and the watchtower live on the local world's server: when the owner points Esplora at
 * another local world (tests start theirs on free ports), they follow it unless set themselves.
 */
const localWorld = (storage: KeyValueStorage, network: Network, defaults: Servers): Servers => {
  const esplora = readLocalSetting(storage, "esplora")?.replace(/\/$/, "");
  if (network !== "regtest" || !esplora || esplora === defaults.esplora) return defaults;
  return {
    ...defaults,
    proxy: defaults.proxy === DEFAULT_SERVERS.regtest.proxy ? esplora.replace(/^http/, "ws") : defaults.proxy,
    lsp: defaults.lsp === DEFAULT_SERVERS.regtest.lsp ? esplora : defaults.lsp,
    // The world keeps one storage server at its root, also for an Esplora path that lies (`/hostile/<scope>`).
    storage:
      defaults.storage === DEFAULT_SERVERS.regtest.storage
        ? `${originOf(esplora)}/storage`
        : defaults.storage,
    tower: defaults.tower === DEFAULT_SERVERS.regtest.tower ? `${originOf(esplora)}/tower` : defaults.tower,
  };
};

/** A network's servers before the owner changed any, as this device resolves them (see `localWorld`). */
export const serverDefaults = (storage: KeyValueStorage, network: Network, build: BuildDefaults): Servers =>
  localWorld(storage, network, defaultServers(network, build));

/** Where the wallet runs: the owner's settings over the build's defaults. */
export const resolveConfig = (storage: KeyValueStorage, build: BuildDefaults): WalletConfig => {
  const network = asNetwork(readLocalSetting(storage, "network")) ?? defaultNetwork(build);
  const services = network === defaultNetwork(build) ? servicesBase(build) : null;
  const servers = resolveServers(storage, network, build);
  const { esplora } = servers;
  const published = services ? readPublished(storage) : {};
  const priceSource =
    published.priceFeed ??
    (network === "regtest" ? `${esplora}/api/v1/price/{code}` : "https://mempool.space/api/v1/prices");
  // On regtest the local world serves feedback, membership and lightning addresses on its one port.
  const world = network === "regtest" ? esplora : null;
  const service = (name: "subscriptions" | "hermes" | null, built: string | undefined): string | null => {
    const stored = name ? storage.getItem(`USER_SETTINGS_${name}`) : null;
    if (stored !== null) return stored.replace(/\/$/, "") || null;
    const own = network === defaultNetwork(build) ? built || services : null;
    return (own || world)?.replace(/\/$/, "") || null;
  };
  const missing: string[] = REQUIRED_SERVERS.filter((name) => servers[name] === "");
  // Self-hosted mode needs the build's network (spec 1 §5); the services' URL gives the proxy.
  if (servicesBase(build) && !asNetwork(build.network)) missing.unshift("network");
  return {
    network,
    esplora,
    priceSource,
    nwcRelay:
      published.nwcRelay ??
      (network === "regtest" ? `${esplora.replace(/^http/, "ws")}/nostr` : DEFAULT_NWC_RELAY),
    servers,
    nostr: resolveNostrServers(storage, network, esplora, build),
    proxy: servers.proxy || null,
    lsp: servers.lsp || null,
    feedback: service(null, build.feedback),
    subscriptions: service("subscriptions", build.subscriptions),
    hermes: service("hermes", build.hermes),
    // Only where set: the build's (its own network) or the owner's stored one.
    scorer:
      storage.getItem("USER_SETTINGS_scorer")?.trim() ||
      (network === defaultNetwork(build) ? build.scorer : undefined) ||
      null,
    selfHosted: resolveSelfHosted(storage, network, build),
    missingDefaults: missing,
  };
};
