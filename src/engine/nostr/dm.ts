/**
 * Private messages with a contact: NIP-17 (a kind 14 rumor, sealed (kind 13) and gift-wrapped (kind 1059)
 * with NIP-44 v2, by nostr-tools' nip59 and nip44) and the legacy NIP-04 (kind 4) older clients still send.
 * Everything read here is input: a wrap that does not open, a seal whose signature fails, or a rumor that
 * claims another author than the one who signed its seal is dropped, never shown.
 */
import type { EventTemplate, VerifiedEvent } from "nostr-tools/core";
import * as nip04 from "nostr-tools/nip04";
import * as nip44 from "nostr-tools/nip44";
import { createRumor, createSeal, createWrap } from "nostr-tools/nip59";
import { finalizeEvent, getEventHash, verifyEvent } from "nostr-tools/pure";
import type { ChatMessage } from "../../projections/chat";
import { checkEvent, type NostrEvent, plainEvent } from "./event";
import { jsonOrNull } from "../parse/json";

export const GIFT_WRAP = 1059;
export const SEAL = 13;
export const CHAT_MESSAGE = 14;
export const LEGACY_DM = 4;
/** NIP-17: the relays a person reads their private messages on. */
export const DM_RELAYS = 10050;

/** The most characters of one message the wallet sends or shows. */
export const MAX_MESSAGE_CHARS = 10_000;

/** A message as the wallet keeps it: who wrote it, to whom (the conversation, hex pubkey), what, and when. */
export type DirectMessage = ChatMessage;

const HEX64 = /^[0-9a-f]{64}$/;

const tagValue = (tags: readonly (readonly string[])[], name: string): string | null => {
  const t = tags.find((x) => x[0] === name && typeof x[1] === "string");
  return t?.[1] ?? null;
};

/** The signed wraps of one message to `peer`: one for them and one for the wallet itself (to read it back). */
export const wrapMessage = (
  secret: Uint8Array,
  me: string,
  peer: string,
  text: string,
  now: number,
  relayHint?: string,
): { message: DirectMessage; toPeer: NostrEvent; toSelf: NostrEvent } => {
  const rumor = createRumor(
    {
      kind: CHAT_MESSAGE,
      content: text,
      tags: [relayHint ? ["p", peer, relayHint] : ["p", peer]],
      created_at: now,
    },
    secret,
  );
  const toPeer = createWrap(createSeal(rumor, secret, peer), peer);
  const toSelf = createWrap(createSeal(rumor, secret, me), me);
  return {
    message: { id: rumor.id, from: me, peer, text, at: now, via: "nip17" },
    toPeer: plainEvent(toPeer),
    toSelf: plainEvent(toSelf),
  };
};

/** Opens a gift wrap addressed to `me`: the message in it, or null when it is not a valid NIP-17 message. */
export const openWrap = (wrap: NostrEvent, secret: Uint8Array, me: string): DirectMessage | null => {
  try {
    if (wrap.kind !== GIFT_WRAP || !wrap.tags.some((t) => t[0] === "p" && t[1] === me)) return null;
    const seal = checkEvent(
      jsonOrNull(nip44.decrypt(wrap.content, nip44.getConversationKey(secret, wrap.pubkey))),
    );
    if (!seal || seal.kind !== SEAL || seal.tags.length > 0) return null;
    const rumor = jsonOrNull(nip44.decrypt(seal.content, nip44.getConversationKey(secret, seal.pubkey)));
    if (typeof rumor !== "object" || rumor === null) return null;
    const r = rumor as Record<string, unknown>;
    if (r.kind !== CHAT_MESSAGE || typeof r.content !== "string" || !Array.isArray(r.tags)) return null;
    if (typeof r.pubkey !== "string" || r.pubkey !== seal.pubkey) return null;
    if (typeof r.created_at !== "number" || !Number.isSafeInteger(r.created_at) || r.created_at < 0)
      return null;
    const tags = (r.tags as unknown[]).filter(
      (t): t is string[] => Array.isArray(t) && t.every((x) => typeof x === "string"),
    );
    const id = getEventHash({
      kind: CHAT_MESSAGE,
      pubkey: r.pubkey,
      created_at: r.created_at,
      tags,
      content: r.content,
    });
    if (typeof r.id === "string" && r.id !== id) return null;
    // A one-to-one conversation: the wallet's own message names the peer; another's names the wallet.
    const to = tags.filter((t) => t[0] === "p").map((t) => t[1] ?? "");
    const peer = r.pubkey === me ? to.find((p) => p !== me) : r.pubkey;
    if (!peer || !HEX64.test(peer)) return null;
    if (r.pubkey !== me && !to.includes(me)) return null;
    return {
      id,
      from: r.pubkey,
      peer,
      text: r.content.slice(0, MAX_MESSAGE_CHARS),
      at: r.created_at,
      via: "nip17",
    };
  } catch {
    return null;
  }
};

/** Reads a NIP-04 message the wallet sent or received; null when it is none or does not decrypt. */
export const openLegacy = (event: NostrEvent, secret: Uint8Array, me: string): DirectMessage | null => {
  try {
    // A fresh object: a copy made by spreading would carry nostr-tools' "already verified" mark along.
    if (event.kind !== LEGACY_DM || !verifyEvent(plainEvent(event))) return null;
    const to = tagValue(event.tags, "p");
    if (!to || !HEX64.test(to)) return null;
    const peer = event.pubkey === me ? to : event.pubkey;
    if (event.pubkey !== me && to !== me) return null;
    const text = nip04.decrypt(secret, peer, event.content);
    return {
      id: event.id,
      from: event.pubkey,
      peer,
      text: text.slice(0, MAX_MESSAGE_CHARS),
      at: event.created_at,
      via: "nip04",
    };
  } catch {
    return null;
  }
};

/** The wallet's NIP-17 inbox relay list (kind 10050) naming `relays`. */
export const dmRelayList = (secret: Uint8Array, relays: readonly string[], now: number): NostrEvent =>
  plainEvent(
    finalizeEvent(
      { kind: DM_RELAYS, content: "", tags: relays.map((r) => ["relay", r]), created_at: now },
      secret,
    ),
  );

/** The relays a kind 10050 list names (ws or wss URLs only). */
export const dmRelaysOf = (event: NostrEvent): string[] =>
  event.kind !== DM_RELAYS
    ? []
    : event.tags.flatMap((t) => {
        if (t[0] !== "relay" || typeof t[1] !== "string") return [];
        try {
          const u = new URL(t[1]);
          return u.protocol === "ws:" || u.protocol === "wss:" ? [u.href] : [];
        } catch {
          return [];
        }
      });

/** Signs NIP-42 AUTH events with `secret` (the relay serves gift wraps to their addressee only). */
export const authSigner =
  (secret: Uint8Array) =>
  async (template: EventTemplate): Promise<VerifiedEvent> =>
    finalizeEvent(template, secret);
