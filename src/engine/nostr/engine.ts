import type { Engine } from "../engine";
import { socketClass } from "../http/socket";

/**
 * The nostr engine (relays and the outbox). A wallet that never used nostr never connects to a relay: it
 * starts once the log records a nostr identity or an event to publish, or when a command first needs it.
 */
export const nostrEngine: Engine<"nostr"> = {
  name: "nostr",
  needed: (states) => states.nostr.identity !== null || states.nostr.outbox.size > 0,
  onDemand: true,
  start: async ({ config, platform, hooks }) => {
    const [{ makeNostrPort }, { RELAY_SOCKET_LIMITS }] = await Promise.all([
      import("./live"),
      import("./relays"),
    ]);
    // Relays are opened through the bounded sockets: a connect deadline and a cap on each message.
    const socket = socketClass(platform.makeSocket, RELAY_SOCKET_LIMITS);
    const servers = config.nostr;
    return makeNostrPort(servers?.relays ?? [], socket, hooks, {
      fetch: platform.fetch,
      primal: servers?.primal ?? "",
      blossom: servers?.blossom ?? "",
    });
  },
  stop: async (port) => port.stop(),
};
