import { describe, expect, it } from "vitest";
import { DEFAULT_SERVERS, resolveConfig, resolveServers, type Servers } from "../config";
import { saveSelfHosted, saveServers, validateServers } from "./servers";

const defaults: Servers = {
  ...DEFAULT_SERVERS.bitcoin,
  proxy: "wss://proxyabcdef.onion",
  storage: "https://storage.example",
};
const memory = () => {
  const m = new Map<string, string>();
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
};

describe("server settings", () => {
  it("accepts the defaults", () => {
    expect(validateServers(defaults, defaults)).toEqual({});
  });

  it("requires proxy, esplora, rgs and storage, and well-formed URLs", () => {
    const errors = validateServers(
      { ...defaults, proxy: "", esplora: " ", rgs: "", storage: "ftp://x" },
      defaults,
    );
    expect(errors).toEqual({
      proxy: "settings.servers.error_required",
      esplora: "settings.servers.error_required",
      rgs: "settings.servers.error_required",
      storage: "settings.servers.error_url",
    });
    expect(validateServers({ ...defaults, proxy: "https://not-a-socket" }, defaults)).toEqual({
      proxy: "settings.servers.error_url",
    });
  });

  it("refuses onion addresses except a field's default", () => {
    expect(validateServers({ ...defaults, esplora: "http://abcdefgh.onion/api" }, defaults)).toEqual({
      esplora: "settings.servers.error_tor",
    });
    expect(validateServers({ ...defaults, proxy: "wss://other.onion" }, defaults)).toEqual({
      proxy: "settings.servers.error_tor",
    });
    expect(
      validateServers(
        { ...defaults, lsp: "", lsps_connection_string: "02ab@xyz.onion:9735", lsps_token: "t" },
        defaults,
      ),
    ).toEqual({ lsps_connection_string: "settings.servers.error_tor" });
  });

  it("takes either the lsp or a connection string with its token, and needs one of them", () => {
    expect(
      validateServers({ ...defaults, lsps_connection_string: "02ab@host:9735", lsps_token: "t" }, defaults),
    ).toEqual({
      lsp: "settings.servers.lsps_valid_error",
    });
    expect(
      validateServers({ ...defaults, lsp: "", lsps_connection_string: "02ab@host:9735" }, defaults),
    ).toEqual({
      lsps_token: "settings.servers.lsps_valid_error",
    });
    expect(validateServers({ ...defaults, lsp: "" }, defaults)).toEqual({
      lsp: "settings.servers.error_lsp",
    });
    expect(
      validateServers(
        { ...defaults, lsp: "", lsps_connection_string: "02ab@host:9735", lsps_token: "t" },
        defaults,
      ),
    ).toEqual({});
  });

  it("stores only what differs from the defaults; an empty string means none", () => {
    const storage = memory();
    storage.setItem("USER_SETTINGS_rgs", "https://old.example");
    const chosen = {
      ...defaults,
      esplora: "https://esplora.example/api",
      lsp: "",
      lsps_connection_string: "02ab@h:1",
      lsps_token: "tok",
    };
    saveServers(storage, chosen, defaults);
    expect(Object.fromEntries(storage.map)).toEqual({
      USER_SETTINGS_esplora: "https://esplora.example/api",
      USER_SETTINGS_lsp: "",
      USER_SETTINGS_lsps_connection_string: "02ab@h:1",
      USER_SETTINGS_lsps_token: "tok",
    });
    const build = { proxy: defaults.proxy, storage: defaults.storage };
    expect(resolveServers(storage, "bitcoin", build)).toEqual(chosen);
    expect(resolveConfig(storage, build).servers).toEqual(chosen);
  });
});

describe("the selfhosted setting", () => {
  it("defaults to the build's self-hosted mode on its network and to the local world on regtest", () => {
    const services = { network: "signet", services: "https://wallet.example.org" };
    const built = { network: "signet", proxy: "wss://p.example.org", storage: "https://s.example.org" };
    expect(resolveConfig(memory(), services).selfHosted).toBe(true);
    expect(resolveConfig(memory(), built).selfHosted).toBe(false);
    expect(resolveConfig(memory(), { network: "regtest" }).selfHosted).toBe(true);
  });

  it("is the owner's once set, and is removed from storage when set back to the default", () => {
    const built = { network: "signet", proxy: "wss://p.example.org", storage: "https://s.example.org" };
    const storage = memory();
    saveSelfHosted(storage, true, false);
    expect(Object.fromEntries(storage.map)).toEqual({ USER_SETTINGS_selfhosted: "true" });
    expect(resolveConfig(storage, built).selfHosted).toBe(true);
    saveSelfHosted(storage, false, false);
    expect(Object.fromEntries(storage.map)).toEqual({});
    expect(resolveConfig(storage, built).selfHosted).toBe(false);
    // On the local world the owner may say the servers are not theirs.
    saveSelfHosted(storage, false, true);
    expect(resolveConfig(storage, { network: "regtest" }).selfHosted).toBe(false);
    // Anything but "true" or "false" stored is the default.
    storage.setItem("USER_SETTINGS_selfhosted", "maybe");
    expect(resolveConfig(storage, { network: "regtest" }).selfHosted).toBe(true);
  });
});
