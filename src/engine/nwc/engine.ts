import type { Engine } from "../engine";
import { DEFAULT_NWC_RELAY } from "../../config";
import { noEdits } from "../../projections/crdt";
import { nwcProfilesOf } from "../../projections/nwc";

/**
 * The wallet-connect service: runs only while the wallet has an enabled connection, and not in safe mode
 * (which runs without lightning and hides the requests). Its relay code loads when it starts, so a wallet
 * without connections never downloads it.
 */
export const nwcEngine: Engine<"nwc"> = {
  name: "nwc",
  needed: (states) =>
    states.wallet.exists &&
    !states.wallet.safe_mode &&
    // No owner edits yet (or Automerge not loaded yet): no connections.
    nwcProfilesOf(states.crdt ?? noEdits).some((p) => p.enabled),
  start: async ({ config, mnemonic, platform, hooks }) => {
    const { startNwcService } = await import("./service");
    return startNwcService(config.nwcRelay ?? DEFAULT_NWC_RELAY, mnemonic, platform.makeSocket, hooks);
  },
  stop: (port) => port.stop(),
};
