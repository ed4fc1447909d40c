/**
 * NIP-57 zap requests (kind 9734) to a profile, of the three kinds a sender may choose:
 * - public: signed by the wallet's key, the comment in clear;
 * - anonymous: signed by a throwaway key with an empty `anon` tag, so nobody learns who paid;
 * - private: signed by a key derived from the wallet's key, the recipient and the time, with the real request
 *   (kind 9733, signed by the wallet's key, carrying the comment) encrypted to the recipient in the `anon` tag.
 *   The encryption is NIP-04's (ECDH + AES-256-CBC) with the ciphertext and IV bech32-encoded as
 *   `pzap1…_iv1…`, as Damus, Amethyst and rust-nostr write it; only the recipient (and the sender, who can
 *   derive the key again) can read who paid and why.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base64, bech32, hex, utf8 } from "@scure/base";
import * as nip04 from "nostr-tools/nip04";
import { makeZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import type { NostrEvent } from "./event";

export const ZAP_PRIVACIES = ["Public", "Private", "Anonymous"] as const;
export type ZapPrivacy = (typeof ZAP_PRIVACIES)[number];

/** NIP-57's kind of the encrypted inner request of a private zap. */
export const PRIVATE_ZAP_KIND = 9733;

export interface ZapRequestInput {
  /** The wallet's key; signs a public request and the inner request of a private one. */
  readonly secret: Uint8Array;
  /** The zapped key (hex). */
  readonly recipient: string;
  readonly amountMsat: bigint;
  readonly comment: string;
  readonly relays: readonly string[];
  /** Unix seconds. */
  readonly createdAt: number;
}

/**
 * The key a private zap request is signed with: sha256 of the sender's secret (hex), the zapped id (the
 * recipient's key for a profile zap) and the request's time, as Damus and rust-nostr derive it.
 */
export const privateZapKey = (secret: Uint8Array, recipient: string, createdAt: number): Uint8Array =>
  sha256(utf8.decode(`${hex.encode(secret)}${recipient}${createdAt}`));

/** NIP-04 ciphertext (`base64?iv=base64`) in the private-zap form `pzap1…_iv1…`. */
const toBech32 = (nip04Payload: string): string => {
  const [ct = "", iv = ""] = nip04Payload.split("?iv=");
  const words = (bytes: Uint8Array) => bech32.toWords(bytes);
  return `${bech32.encode("pzap", words(base64.decode(ct)), false)}_${bech32.encode("iv", words(base64.decode(iv)), false)}`;
};

/** `pzap1…_iv1…` back to NIP-04's `base64?iv=base64`; null when it is not that form. */
const fromBech32 = (anon: string): string | null => {
  const [ct, iv, extra] = anon.split("_");
  if (!ct || !iv || extra !== undefined) return null;
  try {
    const c = bech32.decode(ct as `${string}1${string}`, false);
    const i = bech32.decode(iv as `${string}1${string}`, false);
    if (c.prefix !== "pzap" || i.prefix !== "iv") return null;
    return `${base64.encode(bech32.fromWords(c.words))}?iv=${base64.encode(bech32.fromWords(i.words))}`;
  } catch {
    return null;
  }
};

/** The signed zap request (JSON) of `privacy`, ready for the pay service's `nostr` parameter. */
export const zapRequestJson = (privacy: ZapPrivacy, z: ZapRequestInput): string => {
  const base = makeZapRequest({
    pubkey: z.recipient,
    amount: Number(z.amountMsat),
    comment: privacy === "Private" ? "" : z.comment,
    relays: [...z.relays],
  });
  const template = { ...base, created_at: z.createdAt };
  if (privacy === "Public") return JSON.stringify(finalizeEvent(template, z.secret));
  if (privacy === "Anonymous")
    return JSON.stringify(
      finalizeEvent({ ...template, tags: [...template.tags, ["anon"]] }, generateSecretKey()),
    );
  const signing = privateZapKey(z.secret, z.recipient, z.createdAt);
  const inner = finalizeEvent(
    { kind: PRIVATE_ZAP_KIND, created_at: z.createdAt, content: z.comment, tags: [["p", z.recipient]] },
    z.secret,
  );
  const anon = toBech32(nip04.encrypt(signing, z.recipient, JSON.stringify(inner)));
  return JSON.stringify(finalizeEvent({ ...template, tags: [...template.tags, ["anon", anon]] }, signing));
};

/**
 * The inner request of a private zap `request`, opened by its recipient's key: who really paid and their
 * comment. Null when the request is not a private zap, does not open, or its inner event is not a validly
 * signed kind 9733 to the same recipient.
 */
export const openPrivateZap = (
  request: NostrEvent,
  recipientSecret: Uint8Array,
): { sender: string; comment: string } | null => {
  const anon = request.tags.find((t) => t[0] === "anon")?.[1];
  const payload = anon ? fromBech32(anon) : null;
  if (!payload) return null;
  try {
    const inner = JSON.parse(nip04.decrypt(recipientSecret, request.pubkey, payload)) as NostrEvent;
    const me = getPublicKey(recipientSecret);
    if (inner.kind !== PRIVATE_ZAP_KIND || !verifyEvent(inner)) return null;
    if (!inner.tags.some((t) => t[0] === "p" && t[1] === me)) return null;
    return { sender: inner.pubkey, comment: inner.content };
  } catch {
    return null;
  }
};
