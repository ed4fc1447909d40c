/**
 * Puts handlers in front of the world's HTTP server without changing it: requests and WebSocket upgrades a
 * handler claims (by path) go to it; the rest reach the listeners that were there before (the Esplora API,
 * the lightning proxy).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export type RequestClaim = (req: IncomingMessage, res: ServerResponse) => boolean;
export type UpgradeClaim = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

export const mountInFront = (server: Server, onRequest: RequestClaim, onUpgrade: UpgradeClaim): void => {
  const requests = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const upgrades = server.listeners("upgrade") as ((req: IncomingMessage, s: Duplex, h: Buffer) => void)[];
  server.removeAllListeners("request");
  server.removeAllListeners("upgrade");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    let claimed = false;
    try {
      claimed = onRequest(req, res);
    } catch (e) {
      claimed = true;
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(e instanceof Error ? e.message : String(e));
    }
    if (!claimed) for (const l of requests) l.call(server, req, res);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let claimed = false;
    try {
      claimed = onUpgrade(req, socket, head);
    } catch {
      claimed = true;
      socket.destroy();
    }
    if (!claimed) for (const l of upgrades) l.call(server, req, socket, head);
  });
};
