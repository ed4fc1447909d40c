import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".map": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain",
};

/** One answer the server sent: what, how many bytes went over the wire, when it was asked for and ended (epoch ms). */
export interface Served {
  readonly path: string;
  readonly status: number;
  readonly bytes: number;
  readonly start: number;
  readonly end: number;
}

export interface StaticServer {
  readonly url: string;
  /** Everything served since the last `reset`. */
  readonly log: Served[];
  reset(): void;
  close(): Promise<void>;
}

/**
 * Serves a static build directory the way a plain static host does, identically for every page compared:
 * gzip for text and wasm (compressed once, so compression time is not in the figures), long-lived caching
 * for files under assets/ (hashed names) and revalidation for the rest, index.html for unknown paths (a
 * single-page app's routes). It records every answer so a bench can tell what was fetched and when.
 */
export const serveStatic = async (dir: string, port = 0): Promise<StaticServer> => {
  const root = resolve(dir);
  const gz = new Map<string, Buffer>();
  const log: Served[] = [];
  const server: Server = createServer(async (req, res) => {
    const start = Date.now();
    const url = new URL(req.url ?? "/", "http://x");
    let path = normalize(decodeURIComponent(url.pathname));
    let file = join(root, path);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    const isFile = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile) {
      if (extname(path) && path !== "/") {
        res.writeHead(404).end();
        log.push({ path, status: 404, bytes: 0, start, end: Date.now() });
        return;
      }
      path = "/index.html";
      file = join(root, "index.html");
    }
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    const immutable = path.startsWith("/assets/");
    const headers: Record<string, string> = {
      "content-type": type,
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    };
    let body: Buffer = await readFile(file);
    const compressible = !/^image\/(png|x-icon)|font\//.test(type);
    if (compressible && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      let z = gz.get(file);
      if (!z) {
        z = gzipSync(body, { level: 6 });
        gz.set(file, z);
      }
      body = z;
      headers["content-encoding"] = "gzip";
    }
    headers["content-length"] = String(body.length);
    res.writeHead(200, headers);
    res.end(body, () => log.push({ path, status: 200, bytes: body.length, start, end: Date.now() }));
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    log,
    reset: () => {
      log.length = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};
