/** A small JSON-over-HTTP listener with open CORS, for the local LNURL services. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface JsonReply {
  readonly status: number;
  readonly json: unknown;
  /** Extra headers (a redirect's `location`). */
  readonly headers?: Readonly<Record<string, string>>;
}

export type JsonHandler = (url: URL) => Promise<JsonReply> | JsonReply;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "content-type, accept",
};

/** LUD-06's error answer. */
export const lnurlError = (reason: string, status = 200): JsonReply => ({
  status,
  json: { status: "ERROR", reason },
});

export const serveJson = async (
  handler: JsonHandler,
  host = "127.0.0.1",
  port = 0,
): Promise<{ server: Server; base: string; stop: () => Promise<void> }> => {
  const server = createServer(async (req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    let reply: JsonReply;
    try {
      reply = await handler(new URL(req.url ?? "/", `http://${req.headers.host ?? host}`));
    } catch (e) {
      reply = lnurlError(e instanceof Error ? e.message : String(e), 500);
    }
    res.writeHead(reply.status, { ...CORS, "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(reply.json));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    base: `http://${host}:${actual}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
