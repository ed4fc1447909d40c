/** The world's nostr relay read from outside the wallet, by nostr-tools, as any other client sees it. */
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { verifyEvent } from "nostr-tools/pure";
import { decode } from "nostr-tools/nip19";
import WebSocket from "ws";
import { expect } from "./fixtures";

setPoolSocket(WebSocket);

/** The events of `kind` that `npub` signed on the world's relay (at `esplora`), each signature checked. */
export const eventsOnRelay = async (esplora: string, npub: string, kind: number) => {
  const decoded = decode(npub);
  if (decoded.type !== "npub") throw new Error("not an npub");
  const pool = new SimplePool();
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
