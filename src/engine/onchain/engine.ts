import type { Engine } from "../engine";

/** The BIP84 on-chain wallet over the configured Esplora server: every wallet runs it. */
export const onchainEngine: Engine<"onchain"> = {
  name: "onchain",
  needed: () => true,
  start: async ({ config, mnemonic, platform }) => {
    const { makeOnchainPort } = await import("./live");
    return makeOnchainPort(mnemonic, config.network, config.esplora, platform.fetch);
  },
  stop: async () => undefined,
};
