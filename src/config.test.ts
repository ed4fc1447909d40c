import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BOOT_MESSAGES, bootErrorKind } from "./boot";
import {
  type BuildDefaults,
  DEFAULT_NWC_RELAY,
  DEFAULT_PRIMAL_API,
  DEFAULT_SERVERS,
  defaultNostrServers,
  MISSING_DEFAULT,
  REQUIRED_SERVERS,
  resolveConfig,
  type WalletConfig,
} from "./config";
import { NETWORKS } from "./events/types";

const empty = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const stored = (values: Record<string, string>) => ({ ...empty, getItem: (k: string) => values[k] ?? null });

/** The hosts of the product this wallet replaces, whose servers no longer run. */
const GONE = /mutiny(wallet|net)\.com/i;

/** Every string in a configuration (servers, nostr servers, services). */
const stringsOf = (v: unknown): string[] =>
  typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(stringsOf) : [];

const LIVE = NETWORKS.filter((n) => n !== "regtest");

describe("the build's defaults off regtest", () => {
  it("name no host of the product we replace, in the source or in any resolved configuration", () => {
    const source = readFileSync(new URL("./config.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(GONE);
    for (const network of LIVE) {
      const config = resolveConfig(empty, { network });
      const strings = stringsOf(config);
      expect(strings.length).toBeGreaterThan(5);
      for (const s of strings) expect(s).not.toMatch(GONE);
      for (const s of [
        ...stringsOf(DEFAULT_SERVERS[network]),
        DEFAULT_PRIMAL_API[network],
        ...stringsOf(defaultNostrServers(network, DEFAULT_SERVERS[network].esplora)),
      ])
        expect(s).not.toMatch(GONE);
    }
    expect(DEFAULT_NWC_RELAY).not.toMatch(GONE);
  });

  it("are public services over TLS where they are set", () => {
    for (const network of LIVE)
      for (const url of Object.values(DEFAULT_SERVERS[network]).filter((u) => u !== ""))
        expect(new URL(url).protocol).toMatch(/^(https|wss):$/);
  });

  it("each required server has a default, or the build does not start but shows the spec's error", () => {
    for (const network of LIVE) {
      const config = resolveConfig(empty, { network });
      const servers = config.servers as NonNullable<WalletConfig["servers"]>;
      for (const name of REQUIRED_SERVERS)
        if (servers[name] === "") expect(config.missingDefaults).toContain(name);
        else expect(config.missingDefaults).not.toContain(name);
    }
    // No public WebSocket proxy or storage server is vouched for: a build must name its own.
    expect(resolveConfig(empty, { network: "bitcoin" }).missingDefaults).toEqual(["proxy", "storage"]);
    expect(resolveConfig(empty, { network: "signet" }).missingDefaults).toEqual(["proxy", "rgs", "storage"]);
    expect(bootErrorKind(BOOT_MESSAGES.missingDefault)).toBe("missing_default");
    expect(BOOT_MESSAGES.missingDefault).toBe(MISSING_DEFAULT);
    expect(MISSING_DEFAULT).toBe("Missing a default setting for network or proxy");
  });

  it("take the build's VITE_* servers, after which nothing is missing", () => {
    const build: BuildDefaults = {
      network: "bitcoin",
      proxy: "wss://proxy.example.org",
      storage: "https://storage.example.org",
    };
    const config = resolveConfig(empty, build);
    expect(config.missingDefaults).toEqual([]);
    expect(config.servers?.proxy).toBe("wss://proxy.example.org");
    expect(config.servers?.rgs).toBe("https://rapidsync.lightningdevkit.org/snapshot/");
    expect(config.servers?.esplora).toBe("https://mempool.space/api");
    // The owner's own setting fills what the build left out.
    const owner = resolveConfig(
      stored({
        USER_SETTINGS_proxy: "wss://mine.example",
        USER_SETTINGS_storage: "https://mine.example/storage",
      }),
      { network: "bitcoin" },
    );
    expect(owner.missingDefaults).toEqual([]);
  });

  it("leave regtest on the local world with nothing missing (npm start)", () => {
    const config = resolveConfig(empty, { network: "regtest" });
    expect(config.missingDefaults).toEqual([]);
    expect(config.servers).toEqual(DEFAULT_SERVERS.regtest);
    // Every server of the local world runs on the owner's machine: no shutdown warning.
    expect(config.selfHosted).toBe(true);
  });
});

describe("self-hosted mode", () => {
  const build: BuildDefaults = { network: "signet", services: "https://wallet.example.org/" };

  it("derives every server from the services' one URL", () => {
    const config = resolveConfig(empty, build);
    expect(config.missingDefaults).toEqual([]);
    expect(config.selfHosted).toBe(true);
    expect(config.servers).toMatchObject({
      esplora: "https://wallet.example.org/esplora",
      proxy: "wss://wallet.example.org",
      rgs: "https://wallet.example.org/rgs/snapshot/",
      storage: "https://wallet.example.org/storage",
      lsp: "https://wallet.example.org/lsp",
    });
    expect(config.proxy).toBe("wss://wallet.example.org");
    expect(config.lsp).toBe("https://wallet.example.org/lsp");
    expect(config.hermes).toBe("https://wallet.example.org");
    expect(config.subscriptions).toBe("https://wallet.example.org");
    expect(config.feedback).toBe("https://wallet.example.org");
    expect(config.nostr?.primal).toBe("https://wallet.example.org/primal");
  });

  it("keeps what the build or the owner set on their own", () => {
    const config = resolveConfig(stored({ USER_SETTINGS_storage: "https://other.example/storage" }), {
      ...build,
      esplora: "https://mempool.space/signet/api",
      hermes: "https://pay.example.org",
      lsp: "https://lsp.example.org",
    });
    expect(config.lsp).toBe("https://lsp.example.org");
    expect(config.servers?.esplora).toBe("https://mempool.space/signet/api");
    expect(config.servers?.storage).toBe("https://other.example/storage");
    expect(config.hermes).toBe("https://pay.example.org");
    expect(config.servers?.proxy).toBe("wss://wallet.example.org");
  });

  it("takes the relays, wallet-connect relay, Blossom and price feed its services publish, under the owner's own", () => {
    const published = JSON.stringify({
      relays: ["wss://relay.example.org", "https://not-a-relay.example", 7],
      nwc_relay: "wss://nwc.example.org",
      blossom: "https://blossom.example.org",
      price_feed: "javascript:alert(1)",
    });
    const config = resolveConfig(stored({ SERVICES_PUBLISHED: published }), build);
    expect(config.nostr?.relays).toEqual(["wss://relay.example.org"]);
    expect(config.nwcRelay).toBe("wss://nwc.example.org");
    expect(config.nostr?.blossom).toBe("https://blossom.example.org");
    expect(config.priceSource).toBe("https://mempool.space/api/v1/prices");
    const owners = resolveConfig(
      stored({ SERVICES_PUBLISHED: published, USER_SETTINGS_nostr_relays: "wss://mine.example" }),
      build,
    );
    expect(owners.nostr?.relays).toEqual(["wss://mine.example"]);
    // Another network's defaults are its own, and a build without services reads nothing published.
    const other = resolveConfig(
      stored({ SERVICES_PUBLISHED: published, USER_SETTINGS_network: "bitcoin" }),
      build,
    );
    expect(other.nwcRelay).toBe(DEFAULT_NWC_RELAY);
    expect(resolveConfig(stored({ SERVICES_PUBLISHED: published }), { network: "signet" }).nwcRelay).toBe(
      DEFAULT_NWC_RELAY,
    );
    expect(resolveConfig(stored({ SERVICES_PUBLISHED: "{not json" }), build).nwcRelay).toBe(
      DEFAULT_NWC_RELAY,
    );
  });

  it("needs the build's network, else the spec's error", () => {
    const config = resolveConfig(empty, { services: "https://wallet.example.org" });
    expect(config.missingDefaults).toEqual(["network"]);
  });

  it("applies to the build's own network only", () => {
    const config = resolveConfig(stored({ USER_SETTINGS_network: "bitcoin" }), build);
    expect(config.selfHosted).toBe(false);
    expect(config.servers?.proxy).toBe("");
    expect(config.missingDefaults).toContain("proxy");
  });
});
