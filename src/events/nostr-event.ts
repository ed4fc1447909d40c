/**
 * A nostr event as the wallet keeps and checks it: every event read from a relay or the cache service is
 * input, so its shape, its size and its signature are checked before anything is believed. It lives with the
 * events because the log checks every stored nostr event the same way.
 */
import { Schema } from "effect";
import { verifyEvent } from "nostr-tools/pure";
import type { NostrEventJson } from "./types";

/** The most bytes of one relay message (or one stored event) the wallet reads. */
export const MAX_EVENT_BYTES = 128_000;
/** The most tags one event may carry (a follow list of 5,000 people fits). */
export const MAX_TAGS = 10_000;

export type NostrEvent = NostrEventJson;

const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/));

export const NostrEventSchema = Schema.Struct({
  id: Hex64,
  pubkey: Hex64,
  created_at: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 2 ** 40 })),
  kind: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65_535 })),
  tags: Schema.Array(Schema.Array(Schema.String)),
  content: Schema.String,
  sig: Schema.String.check(Schema.isPattern(/^[0-9a-f]{128}$/)),
});

const decodeEvent = Schema.decodeUnknownSync(NostrEventSchema);

/**
 * A fresh object of the event's seven fields alone (tags copied): nothing else a sender added rides along, and
 * nostr-tools' cached verification result on the object it was given is not carried over.
 */
export const plainEvent = (
  e: Readonly<Omit<NostrEvent, "tags">> & { readonly tags: readonly (readonly string[])[] },
): NostrEvent => ({
  id: e.id,
  pubkey: e.pubkey,
  created_at: e.created_at,
  kind: e.kind,
  tags: e.tags.map((t) => [...t]),
  content: e.content,
  sig: e.sig,
});

/** The event `raw` is, when its shape fits, it is not too large and its id and signature check; else null. */
export const checkEvent = (raw: unknown): NostrEvent | null => {
  try {
    const e = decodeEvent(raw);
    if (e.tags.length > MAX_TAGS) return null;
    if (JSON.stringify(e).length > MAX_EVENT_BYTES) return null;
    const copy = plainEvent(e);
    return verifyEvent({ ...copy }) ? copy : null;
  } catch {
    return null;
  }
};

/** NIP-01's rule for replaceable events: the newest wins; at the same second, the lowest id. */
export const newerThan = (a: NostrEvent, b: NostrEvent | undefined): boolean =>
  b === undefined || a.created_at > b.created_at || (a.created_at === b.created_at && a.id < b.id);
