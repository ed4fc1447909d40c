/**
 * A profile picture to a Blossom media server (BUD-01/02): `PUT <server>/upload` with the bytes and a kind
 * 24242 authorization (nostr-tools' nipb7 builds it), answered by a blob descriptor whose hash must be the
 * one of the bytes sent. Bounded in time and answer size; pictures are limited in size and type.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { Schema } from "effect";
import type { EventTemplate, VerifiedEvent } from "nostr-tools/core";
import { createUploadAuth, encodeAuthorizationHeader } from "nostr-tools/nipb7";
import { boundedFetch, type FetchFn } from "../http/bounded";

/** The largest picture the wallet uploads, and the types it takes. */
export const MAX_PICTURE_BYTES = 5_000_000;
export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

export const BLOSSOM_LIMITS = { timeoutMs: 30_000, maxBytes: 64_000 } as const;

const Descriptor = Schema.Struct({
  url: Schema.String.check(Schema.isMaxLength(2_000)),
  sha256: Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)),
  size: Schema.Number,
});
const decodeDescriptor = Schema.decodeUnknownSync(Descriptor);

export class UploadFailed extends Error {}

export const pictureHash = (bytes: Uint8Array): string => hex.encode(sha256(bytes));

/** The upload's authorization for the picture `hash`, signed by `sign`, valid for five minutes. */
export const uploadAuth = (sign: (draft: EventTemplate) => VerifiedEvent, hash: string, nowSeconds: number) =>
  createUploadAuth(async (draft) => sign(draft), hash, {
    message: "Upload profile picture",
    expiration: nowSeconds + 300,
  });

/** Uploads the picture; answers its URL on the server. */
export const uploadPicture = async (
  fetchFn: FetchFn,
  server: string,
  bytes: Uint8Array,
  type: string,
  auth: Awaited<ReturnType<typeof uploadAuth>>,
): Promise<string> => {
  const http = boundedFetch(fetchFn, BLOSSOM_LIMITS);
  const hash = pictureHash(bytes);
  const res = await http(`${server.replace(/\/$/, "")}/upload`, {
    method: "PUT",
    headers: {
      authorization: encodeAuthorizationHeader(auth),
      "content-type": type,
      "x-sha-256": hash,
    },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  if (!res.ok) throw new UploadFailed(`The media server answered ${res.status}`);
  let descriptor: { url: string; sha256: string };
  try {
    descriptor = decodeDescriptor(await res.json());
  } catch {
    throw new UploadFailed("The media server's answer is not a blob descriptor");
  }
  if (descriptor.sha256 !== hash)
    throw new UploadFailed("The media server stored other bytes than those sent");
  let url: URL;
  try {
    url = new URL(descriptor.url);
  } catch {
    throw new UploadFailed("The media server's answer has no valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UploadFailed("The media server's answer has no valid URL");
  return url.href;
};

/** What the wallet reads of a picture: at most this many bytes, within this time. */
export const PICTURE_LIMITS = { timeoutMs: 15_000, maxBytes: MAX_PICTURE_BYTES } as const;

/**
 * A profile picture's bytes, read by the worker (bounded, and only an image type), so the page shows it from
 * a `blob:` URL and its policy never has to allow images from any host.
 */
export const fetchPicture = async (
  fetchFn: FetchFn,
  url: string,
): Promise<{ bytes: Uint8Array; type: string }> => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UploadFailed("Not a picture URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new UploadFailed("Not a picture URL");
  const res = await boundedFetch(fetchFn, PICTURE_LIMITS)(parsed.href, { credentials: "omit" });
  if (!res.ok) throw new UploadFailed(`The picture's server answered ${res.status}`);
  const type = (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!(PICTURE_TYPES as readonly string[]).includes(type)) throw new UploadFailed("Not a picture");
  return { bytes: new Uint8Array(await res.arrayBuffer()), type };
};
