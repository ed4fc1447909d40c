/**
 * The local world's nostr services on its one HTTP server: the relay (`ws://…/nostr`, NIP-11 on
 * `GET /nostr`).
 */
import type { Server } from "node:http";
import type { Event } from "nostr-tools/pure";
import { mountInFront } from "./mount";
import { createRelay, type NostrRelay } from "./relay";

export interface NostrWorld {
  /** `ws://host:port/nostr`. */
  readonly relayUrl: string;
  /** Every event the relay holds, newest first. */
  readonly events: () => Event[];
  /** The relay itself (publish as a client would, query as its operator). */
  readonly relay: NostrRelay;
  readonly stop: () => void;
}

export const startNostr = (server: Server, base: string): NostrWorld => {
  const relay = createRelay({ path: "/nostr" });
  mountInFront(
    server,
    (req, res) => relay.handleInfo(req, res),
    (req, socket, head) => relay.handleUpgrade(req, socket, head),
  );
  return {
    relayUrl: `${base.replace(/^http/, "ws")}/nostr`,
    events: relay.events,
    relay,
    stop: relay.close,
  };
};
