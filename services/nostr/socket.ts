/**
 * The WebSocket the services' nostr clients (nostr-tools pools, the wallet-connect client) use on Node 20,
 * which has none of its own.
 *
 * ws reports a socket closed before its handshake ended as an `error` event. nostr-tools closes a relay
 * socket that is slow to answer and clears its `onerror` in the same turn, so that event finds no listener,
 * and an EventEmitter's unheard `error` ends the process: one relay that accepts a connection and never
 * finishes the handshake would stop every service. A socket here always has a listener of its own; the
 * client still learns of the failure from `onclose` and its own timeout.
 */
import WebSocket from "ws";

export class RelaySocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    this.on("error", () => undefined);
  }
}

/** Makes `RelaySocket` the WebSocket of this process's nostr clients (where none is installed yet). */
export const installRelaySocket = (): void => {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= RelaySocket;
};
