import { hasEcash } from "../../projections/ecash";
import type { Engine } from "../engine";

/**
 * Ecash: runs only for a wallet that joined a custodian (or still has ecash at one). cashu-ts and the
 * Cashu adapter load then, never for a wallet without ecash; the Fedimint client only once a federation is
 * joined.
 */
export const ecashEngine: Engine<"ecash"> = {
  name: "ecash",
  needed: (states) => hasEcash(states.ecash),
  start: async ({ config, mnemonic, store, platform, hooks }) => {
    const { startEcashRouter } = await import("./router");
    const loadFedimint = platform.loadFedimint;
    return startEcashRouter({
      hooks,
      cashu: async (h) => {
        const { startCashu } = await import("./cashu/live");
        return startCashu({ mnemonic, store, fetch: platform.fetch, hooks: h });
      },
      fedimint: loadFedimint
        ? async (h) => {
            const { startFedimint } = await import("./fedimint/live");
            return startFedimint({ load: loadFedimint, network: config.network, store, hooks: h });
          }
        : null,
    });
  },
  stop: (port) => port.stop(),
};
