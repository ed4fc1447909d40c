/** The world's nostr relay read from outside the wallet, by nostr-tools, as any other client sees it. */
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { verifyEvent } from "nostr-tools/pure";
import { decode } from "nostr-tools/nip19";
import WebSocket from "ws";
import { expect } from "./fixtures";

setPoolSocket(WebSocket);

/**
 * A nostr-tools pool as an outside client in these tests: it waits up to a minute for the relay's
 * handshake (nostr-tools gives up after 3 s, which a busy machine running the world and a browser passes).
 */
export const patientPool = (): SimplePool => {
  const pool = new SimplePool();
  pool.maxWaitForConnection = 60_000;
  return pool;
};

/** The events of `kind` that `npub` signed on the world's relay (at `esplora`), each signature checked. */
export const eventsOnRelay = async (esplora: string, npub: string, kind: number) => {
  const decoded = decode(npub);
  if (decoded.type !== "npub") throw new Error("not an npub");
  const pool = patientPool();
  try {
    const events = await pool.querySync([`${esplora.replace(/^http/, "ws")}/nostr`], {
      kinds: [kind],
      authors: [decoded.data],
    });
    for (const e of events) expect(verifyEvent(e)).toBe(true);
    return events;
  } finally {
    pool.destroy();
  }
};
