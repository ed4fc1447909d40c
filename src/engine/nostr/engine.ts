import type { Engine } from "../engine";

/**
 * The nostr engine (relays and the outbox). A wallet that never used nostr never connects to a relay: it
 * starts once the log records a nostr identity or an event to publish, or when a command first needs it.
 */
export const nostrEngine: Engine<"nostr"> = {
  name: "nostr",
  needed: (states) => states.nostr.identity !== null || states.nostr.outbox.size > 0,
  onDemand: true,
  start: async ({ config, platform, hooks }) => {
    const { makeNostrPort } = await import("./live");
    const socket = platform.webSocket ?? globalThis.WebSocket;
    const servers = config.nostr;
    return makeNostrPort(servers?.relays ?? [], socket, hooks, {
      fetch: platform.fetch,
      primal: servers?.primal ?? "",
      blossom: servers?.blossom ?? "",
    });
  },
  stop: async (port) => port.stop(),
};
