import type { BuildDefaults } from "./config";

/** What this build chose for its network and servers (`VITE_*` variables at build time). */
export const BUILD_DEFAULTS: BuildDefaults = {
  network: import.meta.env.VITE_NETWORK,
  esplora: import.meta.env.VITE_ESPLORA,
  proxy: import.meta.env.VITE_PROXY,
  rgs: import.meta.env.VITE_RGS,
  storage: import.meta.env.VITE_STORAGE,
  lsp: import.meta.env.VITE_LSP,
  feedback: import.meta.env.VITE_FEEDBACK,
  subscriptions: import.meta.env.VITE_SUBSCRIPTIONS,
  hermes: import.meta.env.VITE_HERMES,
  scorer: import.meta.env.VITE_SCORER,
};
