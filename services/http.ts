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

export type Reply = {
  status?: number;
  json?: unknown;
  text?: string;
  bytes?: Buffer;
  /** Headers beside the content type and CORS. */
  headers?: Record<string, string>;
};
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
        // The rest is not read; the 413 goes out first and the connection closes after it.
        reject(new HttpError(413, "Body too large"));
        req.pause();
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
  "access-control-max-age": "600",
  // The storage server's clock, by which the wallet dates its short-lived headers, and vss-server's
  // protocol version.
  "access-control-expose-headers": "date, vss-protocol-version",
};

export const send = (res: ServerResponse, r: Reply) => {
  const status = r.status ?? 200;
  const extra = r.headers ?? {};
  if (r.bytes) {
    res.writeHead(status, { ...CORS, ...extra, "content-type": "application/octet-stream" });
    res.end(r.bytes);
  } else if (r.json !== undefined) {
    res.writeHead(status, { ...CORS, ...extra, "content-type": "application/json" });
    res.end(JSON.stringify(r.json));
  } else {
    res.writeHead(status, { ...CORS, ...extra, "content-type": "text/plain" });
    res.end(r.text ?? "");
  }
};

/** The first route of `table` matching `method` and `path`, with its match; null when none. */
export const matchRoute = (
  table: RouteTable,
  method: string,
  path: string,
): { route: Route; match: RegExpMatchArray; pattern: RegExp } | null => {
  for (const [m, re, route] of table) {
    const match = path.match(re);
    if (match && m === method) return { route, match, pattern: re };
  }
  return null;
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
    const found = matchRoute(table, method, path);
    if (!found) return { status: 404, text: "Not found" };
    return await found.route(found.match, body, headers, query, raw);
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, text: e.message };
    return { status: 500, text: e instanceof Error ? e.message : String(e) };
  }
};

/**
 * A route's name for logs and metrics: its pattern's literal start, `*` where the variable part begins
 * (`/storage/*`), so a route's figures are one series whatever its paths.
 */
export const routeName = (re: RegExp): string => {
  const src = re.source.replace(/^\^/, "");
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "\\") {
      const next = src[i + 1] ?? "";
      if (/[/.\-_]/.test(next)) {
        out += next;
        i++;
        continue;
      }
      return `${out}*`;
    }
    if (c === "$" && i === src.length - 1) return out;
    if ("()[]{}?*+|$.".includes(c)) return `${out}*`;
    out += c;
  }
  return out;
};

export interface Answered {
  readonly method: string;
  /** The route's name (see `routeName`), or `unmatched`. */
  readonly route: string;
  readonly status: number;
  readonly ms: number;
}

export interface ServerHooks {
  /** Told of every request answered. */
  readonly onAnswer?: (a: Answered) => void;
  /** The answer to a route's unexpected failure (not an HttpError); by default a bare 500. */
  readonly onFailure?: (e: unknown, route: string) => Reply;
  /** The largest body `method path` may send; MAX_BODY_BYTES when not said. */
  readonly maxBody?: (method: string, path: string) => number;
  /** An answer before the route's (a limit reached), or null to go on. */
  readonly admit?: (req: IncomingMessage, route: string) => Reply | null;
}

/** Serves `table` (read on every request, so routes may be added later) on an HTTP server not yet listening. */
export const routeServer = (table: RouteTable, hooks: ServerHooks = {}): Server =>
  createServer(async (req, res) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    let route = "unmatched";
    let status = 500;
    try {
      if (method === "OPTIONS") {
        status = 204;
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      const [path = "/", ...rest] = (req.url ?? "/").split("?");
      const found = matchRoute(table, method, path);
      if (found) route = routeName(found.pattern);
      const refused = found ? (hooks.admit?.(req, route) ?? null) : null;
      if (refused) {
        status = refused.status ?? 200;
        send(res, refused);
        return;
      }
      const raw =
        method === "POST" || method === "PUT"
          ? await readBody(req, hooks.maxBody?.(method, path) ?? MAX_BODY_BYTES)
          : Buffer.alloc(0);
      let reply: Reply;
      if (!found) reply = { status: 404, text: "Not found" };
      else
        try {
          reply = await found.route(
            found.match,
            raw.toString("utf8"),
            req.headers,
            new URLSearchParams(rest.join("?")),
            raw,
          );
        } catch (e) {
          if (e instanceof HttpError) reply = { status: e.status, text: e.message };
          else reply = hooks.onFailure?.(e, route) ?? { status: 500, text: "Internal server error" };
        }
      status = reply.status ?? 200;
      send(res, reply);
    } catch (e) {
      const reply: Reply =
        e instanceof HttpError
          ? { status: e.status, text: e.message }
          : (hooks.onFailure?.(e, route) ?? { status: 500, text: "Internal server error" });
      status = reply.status ?? 500;
      if (status === 413) res.setHeader("connection", "close");
      if (!res.headersSent) send(res, reply);
    } finally {
      hooks.onAnswer?.({ method, route, status, ms: performance.now() - started });
    }
  });
