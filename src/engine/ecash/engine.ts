import { hasEcash } from "../../projections/ecash";
import type { Engine } from "../engine";

/**
 * Ecash: runs only for a wallet that joined a custodian (or still has ecash at one). cashu-ts and the
 * adapter load then, never for a wallet without ecash.
 */
export const ecashEngine: Engine<"ecash"> = {
  name: "ecash",
  needed: (states) => hasEcash(states.ecash),
  start: async ({ mnemonic, store, platform, hooks }) => {
    const { startCashu } = await import("./cashu/live");
    return startCashu({ mnemonic, store, fetch: platform.fetch, hooks });
  },
  stop: (port) => port.stop(),
};
