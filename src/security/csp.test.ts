import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_NWC_RELAY, DEFAULT_SERVERS, resolveConfig } from "../config";
import { connectPolicy, connectSources } from "./csp";

const storage = (values: Record<string, string>) => ({
  getItem: (k: string) => values[k] ?? null,
  setItem: () => undefined,
  removeItem: () => undefined,
});

describe("content security policy", () => {
  it("allows connections only to this origin and the configured servers", () => {
    const build = { network: "bitcoin", proxy: "wss://proxy.example", storage: "https://storage.example" };
    const config = resolveConfig(storage({}), build);
    const d = { ...DEFAULT_SERVERS.bitcoin, ...build };
    expect(connectSources(config)).toEqual(
      // The wallet-connect service's relay too.
      [d.esplora, d.proxy, d.rgs, d.storage, d.lsp, DEFAULT_NWC_RELAY]
        .map((u) => new URL(u).origin)
        .filter((o, i, a) => a.indexOf(o) === i),
    );
    expect(connectPolicy(config)).toMatch(/^connect-src 'self' https:\/\/mempool\.space /);
  });

  it("follows the owner's servers", () => {
    const config = resolveConfig(
      storage({
        USER_SETTINGS_esplora: "https://esplora.example:8443/api",
        USER_SETTINGS_rgs: "https://rgs.example/snapshot/",
        USER_SETTINGS_lsp: "",
      }),
      { network: "bitcoin" },
    );
    const sources = connectSources(config);
    expect(sources).toContain("https://esplora.example:8443");
    expect(sources).toContain("https://rgs.example");
    expect(sources).not.toContain(new URL(DEFAULT_SERVERS.bitcoin.rgs).origin);
    expect(sources).not.toContain(new URL(DEFAULT_SERVERS.bitcoin.lsp).origin);
  });

  it("the page's fixed policy allows no third-party script, no eval and no plugins", () => {
    const html = readFileSync(new URL("../../index.html", import.meta.url), "utf8");
    const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? "";
    const directives = new Map(
      policy.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.has("connect-src")).toBe(false);
    expect(directives.has("default-src")).toBe(false);
    expect(policy).not.toMatch(/(?<!wasm-)unsafe-eval|https:(\s|;|$)|\*/);
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  });
});
