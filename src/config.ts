import type { WalletConfig } from "./commands/protocol";
import type { Network } from "./events/types";
import { NETWORKS } from "./events/types";
import { type KeyValueStorage, readLocalSetting } from "./settings/local";

/** The public Esplora API of each network; regtest defaults to the local world's. */
export const DEFAULT_ESPLORA: { readonly [N in Network]: string } = {
  bitcoin: "https://mempool.space/api",
  testnet: "https://mempool.space/testnet/api",
  signet: "https://mutinynet.com/api",
  regtest: "http://127.0.0.1:3002",
};

/** The WebSocket-to-TCP proxy of each network for reaching lightning peers from the browser. */
export const DEFAULT_PROXY: { readonly [N in Network]: string } = {
  bitcoin: "wss://p.mutinywallet.com",
  testnet: "wss://p.mutinywallet.com",
  signet: "wss://p.mutinywallet.com",
  regtest: "ws://127.0.0.1:3002",
};

/** The LSP of each network; regtest's is the local world's lightning node. */
export const DEFAULT_LSP: { readonly [N in Network]: string } = {
  bitcoin: "https://0conf.lnolymp.us",
  testnet: "https://lsp.voltageapi.com",
  signet: "https://signet-lsp.mutinywallet.com",
  regtest: "http://127.0.0.1:3002",
};

export interface BuildDefaults {
  readonly network?: string;
  readonly esplora?: string;
}

const asNetwork = (v: string | null | undefined): Network | null =>
  NETWORKS.includes(v as Network) ? (v as Network) : null;

/** The network the build defaults to: bitcoin, or what the start script chose (regtest). */
export const defaultNetwork = (build: BuildDefaults): Network => asNetwork(build.network) ?? "bitcoin";

export const defaultEsplora = (network: Network, build: BuildDefaults): string =>
  (network === defaultNetwork(build) ? build.esplora : undefined) || DEFAULT_ESPLORA[network];

/** Where the wallet runs: the owner's settings over the build's defaults. */
export const resolveConfig = (storage: KeyValueStorage, build: BuildDefaults): WalletConfig => {
  const network = asNetwork(readLocalSetting(storage, "network")) ?? defaultNetwork(build);
  const esplora = (readLocalSetting(storage, "esplora") ?? defaultEsplora(network, build)).replace(/\/$/, "");
  const priceSource =
    network === "regtest" ? `${esplora}/api/v1/price/{code}` : "https://mempool.space/api/v1/prices";
  // In the local world the proxy and the LSP live on the same server as Esplora.
  const local = network === "regtest" ? esplora : null;
  const proxy =
    readLocalSetting(storage, "proxy") ?? (local ? local.replace(/^http/, "ws") : DEFAULT_PROXY[network]);
  const lsp = readLocalSetting(storage, "lsp") ?? local ?? DEFAULT_LSP[network];
  return { network, esplora, priceSource, proxy: proxy || null, lsp: lsp || null };
};
