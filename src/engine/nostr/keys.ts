/**
 * The wallet's nostr key: NIP-06 from the seed (`m/44'/1237'/0'/0/0`, nostr-tools' nip06), or an nsec the
 * owner imported. Only the worker ever holds a secret key; what leaves it is the npub.
 */
import { hex } from "@scure/base";
import { privateKeyFromSeedWords } from "nostr-tools/nip06";
import { decode, npubEncode, nsecEncode } from "nostr-tools/nip19";
import { getPublicKey } from "nostr-tools/pure";

/** The last seed's key: NIP-06 stretches the words (2048 rounds of PBKDF2), so it runs once per seed. */
let last: { readonly mnemonic: string; readonly key: Uint8Array } | null = null;

/** The seed's nostr secret key by NIP-06. */
export const seedSecretKey = (mnemonic: string): Uint8Array => {
  if (last?.mnemonic !== mnemonic) last = { mnemonic, key: privateKeyFromSeedWords(mnemonic) };
  return last.key;
};

/** Drops the remembered key once its wallet is gone from this device. */
export const forgetSeedSecretKey = (): void => {
  last = null;
};

/** The secret key an `nsec1…` holds, or null when the text is not one (spec: 'Invalid nsec'). */
export const parseNsec = (text: string): Uint8Array | null => {
  const trimmed = text.trim();
  if (!/^nsec1[02-9ac-hj-np-z]{58}$/.test(trimmed)) return null;
  try {
    const decoded = decode(trimmed);
    if (decoded.type !== "nsec") return null;
    // A key outside the curve's order has no public key: it is not a usable nsec either.
    getPublicKey(decoded.data);
    return decoded.data;
  } catch {
    return null;
  }
};

export const pubkeyOf = (secret: Uint8Array): string => getPublicKey(secret);
export const npubOf = (pubkeyHex: string): string => npubEncode(pubkeyHex);
export const nsecOf = (secret: Uint8Array): string => nsecEncode(secret);
export const secretHex = (secret: Uint8Array): string => hex.encode(secret);

/** The hex public key of an `npub1…`, or null. */
export const parseNpub = (text: string): string | null => {
  try {
    const decoded = decode(text.trim());
    return decoded.type === "npub" ? decoded.data : null;
  } catch {
    return null;
  }
};
