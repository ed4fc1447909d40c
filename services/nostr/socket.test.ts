/**
 * A relay that accepts the connection and never finishes the handshake: a nostr-tools pool on the services'
 * socket gives up on it after its timeout and the process goes on (an unheard `error` would end it).
 */
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { AbstractSimplePool } from "nostr-tools/abstract-pool";
import { verifyEvent } from "nostr-tools/pure";
import { afterAll, beforeAll, expect, test } from "vitest";
import { RelaySocket } from "./socket";

const held: Socket[] = [];
const silent = createServer((socket) => {
  // The request is read and never answered.
  held.push(socket);
  socket.on("error", () => undefined);
});
let url = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

test("a relay that never finishes its handshake is given up on, and nothing is left unheard", async () => {
  const pool = new AbstractSimplePool({
    verifyEvent,
    // ws's socket is the WebSocket nostr-tools asks for, but for the DOM's `dispatchEvent` in its type.
    websocketImplementation: RelaySocket as unknown as typeof WebSocket,
    maxWaitForConnection: 300,
  });
  try {
    const events = await pool.querySync([url], { kinds: [0], limit: 1 }, { maxWait: 500 });
    expect(events).toEqual([]);
    // The socket's error arrives after the pool has let go of it.
    await new Promise((r) => setTimeout(r, 200));
    expect(held.length).toBeGreaterThan(0);
  } finally {
    pool.destroy();
  }
});
