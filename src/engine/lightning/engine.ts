import type { Engine } from "../engine";

/**
 * The LDK node: every wallet runs it except in safe mode, which the owner turns on to open the wallet
 * without lightning when the node itself is what fails. LDK's wasm and the engine's code load side by side.
 */
export const lightningEngine: Engine<"lightning"> = {
  name: "lightning",
  needed: (states) => !states.wallet.safe_mode,
  start: async ({ config, mnemonic, store, platform, hooks }) => {
    await platform.ldkAfter?.();
    const [{ startLightningOn }] = await Promise.all([import("./live"), platform.loadLdk()]);
    return startLightningOn(config, { ...hooks, mnemonic, store }, platform);
  },
  stop: (port) => port.stop(),
};
