/**
 * The one small HTTP router the wallet's services and the local world share: a route table of
 * `[method, path pattern, route]`, bounded request bodies, JSON/bytes/text replies and open CORS (the wallet
 * runs on another origin).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Reply = { status?: number; json?: unknown; text?: string; bytes?: Buffer };
export type Route = (
  m: RegExpMatchArray,
  body: string,
  headers?: IncomingHttpHeaders,
  query?: URLSearchParams,
  raw?: Uint8Array,
) => Promise<Reply> | Reply;
export type RouteTable = [method: string, path: RegExp, route: Route][];

/** The largest request body any route takes. */
export const MAX_BODY_BYTES = 4_000_000;

/** The body's bytes (a protobuf call needs them as sent); routes read it as UTF-8 text too. */
export const readBody = (req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        reject(new HttpError(413, "Body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

/**
 * The scheme the client used: `https` behind a TLS-terminating proxy that says so (`X-Forwarded-Proto`), else
 * `http`. Signed requests (NIP-98) name the URL the client saw.
 */
export const schemeOf = (headers: IncomingHttpHeaders | undefined): "http" | "https" =>
  headers?.["x-forwarded-proto"] === "https" ? "https" : "http";

export const parseJson = (body: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(body || "{}");
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, "Body must be a JSON object");
};

export const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, OPTIONS",
  "access-control-allow-headers": "content-type, authorization",
  // The storage server's clock, by which the wallet dates its short-lived headers.
  "access-control-expose-headers": "date",
  "access-control-max-age": "600",
};

export const send = (res: ServerResponse, r: Reply) => {
  const status = r.status ?? 200;
  if (r.bytes) {
    res.writeHead(status, { ...CORS, "content-type": "application/octet-stream" });
    res.end(r.bytes);
  } else if (r.json !== undefined) {
    res.writeHead(status, { ...CORS, "content-type": "application/json" });
    res.end(JSON.stringify(r.json));
  } else {
    res.writeHead(status, { ...CORS, "content-type": "text/plain" });
    res.end(r.text ?? "");
  }
};

/** The first route of `table` matching `method` and `path`, answered; 404 when none, the error's status. */
export const dispatch = async (
  table: RouteTable,
  method: string,
  path: string,
  body: string,
  headers?: IncomingHttpHeaders,
  query?: URLSearchParams,
  raw?: Uint8Array,
): Promise<Reply> => {
  try {
    for (const [m, re, route] of table) {
      const match = path.match(re);
      if (match && m === method) return await route(match, body, headers, query, raw);
    }
    return { status: 404, text: "Not found" };
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, text: e.message };
    return { status: 500, text: e instanceof Error ? e.message : String(e) };
  }
};

/** Serves `table` (read on every request, so routes may be added later) on an HTTP server not yet listening. */
export const routeServer = (table: RouteTable): Server =>
  createServer(async (req, res) => {
    try {
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      const [path = "/", ...rest] = (req.url ?? "/").split("?");
      const raw = req.method === "POST" || req.method === "PUT" ? await readBody(req) : Buffer.alloc(0);
      const query = new URLSearchParams(rest.join("?"));
      send(
        res,
        await dispatch(table, req.method ?? "GET", path, raw.toString("utf8"), req.headers, query, raw),
      );
    } catch (e) {
      if (e instanceof HttpError) send(res, { status: e.status, text: e.message });
      else send(res, { status: 500, text: e instanceof Error ? e.message : String(e) });
    }
  });
