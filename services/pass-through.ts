/**
 * What the services pass on to an upstream API (`/esplora`, `/lsp`): only that API's own paths, as the
 * wallet asks them, each matched whole on the request's raw path. Nothing else reaches the upstream: no
 * `..` or `.` segment in any spelling (`%2e`, `%2E`), no `//`, no backslash, no percent-escape at all, no
 * scheme or host, no query; a path is made of the few characters its route names (hex, an address's
 * letters and digits, a number). The URL asked upstream is checked once more after the URL parser has
 * read it: the upstream's own origin, its own base path, and the path exactly as matched.
 */
import { boundedFetch, globalFetch } from "../src/engine/http/bounded";
import type { Reply, RouteTable } from "./http";

const HASH = "[0-9a-fA-F]{64}";
/** An address as the wallet's Esplora client asks it: bech32 (either case) or base58. */
const ADDRESS = "[A-Za-z0-9]{14,90}";

/** Esplora's routes the wallet uses (src/engine/onchain/esplora.ts), and the regtest world's price feed. */
export const ESPLORA_PATHS = {
  get: [
    "/blocks/tip/hash",
    "/blocks/tip/height",
    `/block/${HASH}/status`,
    `/block/${HASH}/header`,
    "/mempool",
    "/fee-estimates",
    `/address/${ADDRESS}`,
    `/address/${ADDRESS}/txs`,
    `/address/${ADDRESS}/txs/chain/${HASH}`,
    `/scripthash/${HASH}/utxo`,
    `/tx/${HASH}`,
    `/tx/${HASH}/hex`,
    `/tx/${HASH}/status`,
    `/tx/${HASH}/merkle-proof`,
    `/tx/${HASH}/outspend/[0-9]{1,6}`,
    // The regtest world's price feed sits beside its Esplora API (src/config.ts `priceSource`).
    "/api/v1/price/[A-Za-z]{3}",
  ],
  post: ["/tx"],
} as const;

/** The LSP's HTTP API (Voltage Flow 2) as the wallet asks it (src/engine/lightning/lsp-http.ts). */
export const LSP_PATHS = {
  get: ["/api/v1/info"],
  post: ["/api/v1/fee", "/api/v1/proposal"],
} as const;

export interface PathList {
  readonly get: readonly string[];
  readonly post: readonly string[];
}

const anyOf = (prefix: string, paths: readonly string[]) =>
  new RegExp(`^${prefix}(${paths.map((p) => `(?:${p})`).join("|")})$`);

/**
 * The URL `path` (one the allow-list matched) names at `upstream`, or null when the URL parser would read it
 * as anything else: another origin, outside the upstream's base path, or a path other than the one matched.
 */
export const upstreamUrl = (upstream: string, path: string): string | null => {
  // One absolute path: never a host, a port or userinfo glued to the upstream's own.
  if (!/^\/[^/\\]/.test(path)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(upstream);
    url = new URL(`${upstream}${path}`);
  } catch {
    return null;
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  if (url.origin !== base.origin || url.pathname !== `${basePath}${path}` || url.search || url.hash)
    return null;
  return url.href;
};

/** An upstream's answer read whole, up to a block's size, within 20 s. */
const upstreamFetch = boundedFetch(globalFetch, { timeoutMs: 20_000, maxBytes: 8_000_000 });

/**
 * `prefix`'s requests on `paths` passed on to `upstream` (GET, POST with its body) and its answers passed
 * back, each bounded; `name` says who did not answer. Any other path under `prefix` is not found here.
 */
export const passThrough = (prefix: string, upstream: string, name: string, paths: PathList): RouteTable => {
  const base = upstream.replace(/\/+$/, "");
  const pass = async (path: string, init?: RequestInit): Promise<Reply> => {
    const url = upstreamUrl(base, path);
    if (url === null) return { status: 404, text: "Not found" };
    const r = await upstreamFetch(url, { ...init, redirect: "manual" }).catch(
      (): Reply => ({ status: 502, text: `The ${name} server did not answer` }),
    );
    if (!(r instanceof Response)) return r;
    // A redirect would send the wallet elsewhere on the upstream's word: not passed on.
    if (r.status >= 300 && r.status < 400) return { status: 502, text: `The ${name} server redirected` };
    const bytes = Buffer.from(await r.arrayBuffer());
    const binary = /octet-stream/.test(r.headers.get("content-type") ?? "");
    return binary ? { status: r.status, bytes } : { status: r.status, text: bytes.toString("utf8") };
  };
  return [
    ["GET", anyOf(prefix, paths.get), (m) => pass(m[1]!)],
    [
      "POST",
      anyOf(prefix, paths.post),
      (m, body, headers) =>
        pass(m[1]!, {
          method: "POST",
          body,
          headers: { "content-type": headers?.["content-type"] ?? "text/plain" },
        }),
    ],
  ];
};
