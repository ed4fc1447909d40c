import type { WalletConfig } from "../config";

/**
 * The page's Content Security Policy. `index.html` carries the fixed part in a meta tag: scripts only
 * from this origin (plus `'wasm-unsafe-eval'` for the wallet's WebAssembly), no plugins, no frames, no
 * third-party anything, and no `default-src`, so that it says nothing about connections. Connections are
 * limited by a second policy that `main.tsx` adds before anything connects, built here from the servers
 * this start uses (the defaults or the owner's choice on the servers page). A meta policy can never be
 * widened once in force, which is why the servers page reloads the page after saving: the new policy
 * then names the new servers.
 */

const origin = (url: string): string | null => {
  try {
    const u = new URL(url.replace("{code}", "code"));
    return ["http:", "https:", "ws:", "wss:"].includes(u.protocol) ? u.origin : null;
  } catch {
    return null;
  }
};

/** The origins the wallet may connect to with this configuration, without duplicates, in a fixed order. */
export const connectSources = (config: WalletConfig): string[] => {
  const s = config.servers;
  const urls = [
    config.esplora,
    config.priceSource,
    s?.proxy,
    s?.rgs,
    s?.storage,
    s?.lsp,
    config.nwcRelay,
    config.feedback,
    config.subscriptions,
    config.hermes,
  ];
  const out: string[] = [];
  for (const u of urls) {
    const o = u ? origin(u) : null;
    if (o && !out.includes(o)) out.push(o);
  }
  return out;
};

export const connectPolicy = (config: WalletConfig): string =>
  ["connect-src 'self'", ...connectSources(config)].join(" ");

/** Puts the connection policy in force for this page; call before anything connects. */
export const applyConnectPolicy = (doc: Document, config: WalletConfig): void => {
  const meta = doc.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = connectPolicy(config);
  doc.head.appendChild(meta);
};
