/** Small HTTP pieces the nostr services share: open CORS, bounded bodies, JSON and error answers. */
import type { IncomingMessage, ServerResponse } from "node:http";

export const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, POST, PUT, DELETE, OPTIONS",
  "access-control-allow-headers":
    "authorization, content-type, accept, x-sha-256, x-content-length, x-content-type",
  "access-control-expose-headers": "x-reason",
  "access-control-max-age": "600",
} as const;

export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request's body, refused (413) past `maxBytes` without reading it all. */
export const readBytes = (req: IncomingMessage, maxBytes: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > maxBytes) {
      reject(new HttpFailure(413, `At most ${maxBytes} bytes`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > maxBytes) {
        done = true;
        reject(new HttpFailure(413, `At most ${maxBytes} bytes`));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!done) reject(e);
    });
  });

export const sendJson = (res: ServerResponse, status: number, json: unknown) => {
  res.writeHead(status, { ...CORS, "content-type": "application/json" });
  res.end(JSON.stringify(json));
};

/** An error as Blossom (BUD-01) and our JSON services write it: `X-Reason` and `{error}`. */
export const sendFailure = (res: ServerResponse, e: unknown) => {
  const status = e instanceof HttpFailure ? e.status : 500;
  const message = e instanceof Error ? e.message : String(e);
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    ...CORS,
    "content-type": "application/json",
    "x-reason": message.replace(/[^\x20-\x7e]/g, "?").slice(0, 200),
  });
  res.end(JSON.stringify({ error: message }));
};

/** Runs an async handler for a claimed request; any failure becomes an answer, never an unhandled rejection. */
export const answer = (res: ServerResponse, work: () => Promise<void>) => {
  work().catch((e: unknown) => sendFailure(res, e));
};
