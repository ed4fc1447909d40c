/**
 * A Blossom media server (BUD-01, BUD-02) held in memory, for profile pictures:
 *
 *   PUT  <base>/upload          body: the image; `Authorization: Nostr <base64 kind 24242 event>` with
 *                               t=upload, x=<sha256 of the body>, expiration in the future → blob descriptor
 *   HEAD <base>/upload          BUD-06 preflight: X-SHA-256, X-Content-Length, X-Content-Type → 200 or X-Reason
 *   GET  <base>/<sha256>[.ext]  the bytes with their type (HEAD too)
 *   DELETE <base>/<sha256>      t=delete, x=<sha256>, by someone who uploaded it
 *   GET  <base>/list/<pubkey>   descriptors of what that key uploaded
 *
 * Only images up to `MAX_BLOB_BYTES`, whose bytes are what their type says (PNG, JPEG, GIF, WebP, SVG).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Event, verifyEvent } from "nostr-tools/pure";
import { answer, CORS, HttpFailure, readBytes, sendJson } from "../../services/nostr/http";

export const MAX_BLOB_BYTES = 5 * 1024 * 1024;
export const BLOSSOM_AUTH = 24242;

const TYPES: Record<string, { ext: string; sniff: (b: Buffer) => boolean }> = {
  "image/png": { ext: "png", sniff: (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")) },
  "image/jpeg": { ext: "jpg", sniff: (b) => b.subarray(0, 3).equals(Buffer.from("ffd8ff", "hex")) },
  "image/gif": { ext: "gif", sniff: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")) },
  "image/webp": {
    ext: "webp",
    sniff: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
  },
  "image/svg+xml": {
    ext: "svg",
    sniff: (b) =>
      /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(
        b
          .subarray(0, 4096)
          .toString("utf8")
          .replace(/^\uFEFF/, ""),
      ),
  },
};

export interface BlobDescriptor {
  readonly url: string;
  readonly sha256: string;
  readonly size: number;
  readonly type: string;
  readonly uploaded: number;
}

interface Blob {
  readonly bytes: Buffer;
  readonly type: string;
  readonly uploaded: number;
  readonly owners: Set<string>;
}

export interface BlossomServer {
  readonly url: string;
  /** Handles requests under the server's path; answers whether it did. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Stores an image as the world's own (seeded pictures); answers its descriptor. */
  readonly put: (bytes: Uint8Array, type: string) => BlobDescriptor;
  readonly get: (sha256: string) => { bytes: Buffer; type: string } | null;
}

const sha256Hex = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const normalType = (raw: string | undefined) => (raw ?? "").split(";")[0]!.trim().toLowerCase();

export const createBlossom = (base: string, path = "/blossom"): BlossomServer => {
  const url = `${base}${path}`;
  const blobs = new Map<string, Blob>();

  const descriptor = (sha: string, b: Blob): BlobDescriptor => ({
    url: `${url}/${sha}.${TYPES[b.type]?.ext ?? "bin"}`,
    sha256: sha,
    size: b.bytes.length,
    type: b.type,
    uploaded: b.uploaded,
  });

  const checkType = (type: string) => {
    if (!TYPES[type]) throw new HttpFailure(415, "Only PNG, JPEG, GIF, WebP or SVG images");
  };

  const store = (bytes: Buffer, type: string, owner: string | null) => {
    checkType(type);
    if (bytes.length === 0) throw new HttpFailure(400, "The body is empty");
    if (bytes.length > MAX_BLOB_BYTES) throw new HttpFailure(413, `At most ${MAX_BLOB_BYTES} bytes`);
    if (!TYPES[type]!.sniff(bytes)) throw new HttpFailure(415, `The bytes are not ${type}`);
    const sha = sha256Hex(bytes);
    const b = blobs.get(sha) ?? { bytes, type, uploaded: Math.floor(Date.now() / 1000), owners: new Set() };
    if (owner) b.owners.add(owner);
    blobs.set(sha, b);
    return descriptor(sha, b);
  };

  /** BUD-01 authorization: a signed kind 24242 for `verb`, unexpired, naming `sha` in an x tag when given. */
  const authorize = (req: IncomingMessage, verb: string, sha: string | null): Event => {
    const header = req.headers.authorization ?? "";
    const m = /^Nostr ([A-Za-z0-9+/=_-]+)$/.exec(header.trim());
    if (!m) throw new HttpFailure(401, "Missing Authorization: Nostr <base64 event>");
    let e: Event;
    try {
      e = JSON.parse(Buffer.from(m[1]!, "base64").toString("utf8"));
    } catch {
      throw new HttpFailure(401, "The authorization is not a base64 JSON event");
    }
    let valid = false;
    try {
      valid = !!e && typeof e === "object" && verifyEvent(e);
    } catch {
      valid = false;
    }
    if (!valid) throw new HttpFailure(401, "The authorization event is not validly signed");
    const now = Math.floor(Date.now() / 1000);
    const tags = (name: string) => e.tags.filter((t) => t[0] === name).map((t) => t[1]);
    if (e.kind !== BLOSSOM_AUTH) throw new HttpFailure(401, "The authorization event must be kind 24242");
    if (e.created_at > now + 60) throw new HttpFailure(401, "The authorization event is dated in the future");
    const exp = tags("expiration")[0];
    if (!exp || !/^\d+$/.test(exp) || Number(exp) <= now)
      throw new HttpFailure(401, "The authorization has no expiration in the future");
    if (!tags("t").includes(verb)) throw new HttpFailure(401, `The authorization is not for ${verb}`);
    if (sha !== null && !tags("x").includes(sha))
      throw new HttpFailure(401, "The authorization's x tag is not the sha256 of this blob");
    return e;
  };

  const serveBlob = (req: IncomingMessage, res: ServerResponse, sha: string) => {
    const b = blobs.get(sha);
    if (!b) throw new HttpFailure(404, "Blob not found");
    res.writeHead(200, {
      ...CORS,
      "content-type": b.type,
      "content-length": String(b.bytes.length),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      // An SVG opened on its own runs no script in the world's origin.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
    res.end(req.method === "HEAD" ? undefined : b.bytes);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const full = (req.url ?? "/").split("?")[0]!;
    if (full !== path && !full.startsWith(`${path}/`)) return false;
    const rest = full.slice(path.length);
    const method = req.method ?? "GET";
    answer(res, async () => {
      if (method === "OPTIONS") {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      if (rest === "/upload" && method === "PUT") {
        const type = normalType(req.headers["content-type"]);
        checkType(type);
        const bytes = await readBytes(req, MAX_BLOB_BYTES);
        const e = authorize(req, "upload", sha256Hex(bytes));
        sendJson(res, 201, store(bytes, type, e.pubkey));
        return;
      }
      if (rest === "/upload" && method === "HEAD") {
        const sha = String(req.headers["x-sha-256"] ?? "").toLowerCase();
        const size = Number(req.headers["x-content-length"] ?? "NaN");
        checkType(normalType(String(req.headers["x-content-type"] ?? "")));
        if (!Number.isSafeInteger(size) || size <= 0)
          throw new HttpFailure(411, "X-Content-Length is required");
        if (size > MAX_BLOB_BYTES) throw new HttpFailure(413, `At most ${MAX_BLOB_BYTES} bytes`);
        authorize(req, "upload", /^[0-9a-f]{64}$/.test(sha) ? sha : null);
        res.writeHead(200, CORS);
        res.end();
        return;
      }
      const list = /^\/list\/([0-9a-f]{64})$/.exec(rest);
      if (list && method === "GET") {
        sendJson(
          res,
          200,
          [...blobs].filter(([, b]) => b.owners.has(list[1]!)).map(([sha, b]) => descriptor(sha, b)),
        );
        return;
      }
      const blob = /^\/([0-9a-f]{64})(\.[a-z0-9]{1,10})?$/.exec(rest);
      if (blob && (method === "GET" || method === "HEAD")) return serveBlob(req, res, blob[1]!);
      if (blob && method === "DELETE") {
        const e = authorize(req, "delete", blob[1]!);
        const b = blobs.get(blob[1]!);
        if (!b) throw new HttpFailure(404, "Blob not found");
        if (!b.owners.has(e.pubkey)) throw new HttpFailure(403, "Only who uploaded a blob may delete it");
        b.owners.delete(e.pubkey);
        if (b.owners.size === 0) blobs.delete(blob[1]!);
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      throw new HttpFailure(404, "Not found");
    });
    return true;
  };

  return {
    url,
    handle,
    put: (bytes, type) => store(Buffer.from(bytes), type, null),
    get: (sha) => {
      const b = blobs.get(sha);
      return b ? { bytes: b.bytes, type: b.type } : null;
    },
  };
};
