/**
 * LNURL-auth (LUD-04) with the linking key of LUD-05: a key per service domain, derived from the wallet's
 * seed, signs the service's challenge `k1`. The same seed gives the same key for a domain on any wallet
 * that follows LUD-05, and a different, unlinkable key for every other domain.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { HDKey } from "@scure/bip32";
import { hex, utf8 } from "@scure/base";

/** `m/138'`: the LUD-05 root of every linking key. */
const HARDENED_138 = 0x80000000 + 138;

/** The four path elements after `m/138'` for `domain`, from the hashing key `m/138'/0` (LUD-05 step 3). */
export const linkingPathSuffix = (
  hashingPrivKey: Uint8Array,
  domain: string,
): [number, number, number, number] => {
  const material = hmac(sha256, hashingPrivKey, utf8.decode(domain));
  const view = new DataView(material.buffer, material.byteOffset, 16);
  return [view.getUint32(0), view.getUint32(4), view.getUint32(8), view.getUint32(12)];
};

export interface LinkingKey {
  readonly privateKey: Uint8Array;
  /** Compressed, 33 bytes. */
  readonly publicKey: Uint8Array;
}

/** The linking key for `domain` (the LNURL's full host name, without a trailing dot) under `root`. */
export const linkingKey = (root: HDKey, domain: string): LinkingKey => {
  const base = root.deriveChild(HARDENED_138);
  const hashing = base.deriveChild(0).privateKey;
  if (!hashing) throw new Error("The wallet's key has no private part.");
  let key = base;
  for (const index of linkingPathSuffix(hashing, domain.replace(/\.$/, "").toLowerCase()))
    key = key.deriveChild(index);
  if (!key.privateKey || !key.publicKey) throw new Error("The linking key could not be derived.");
  return { privateKey: key.privateKey, publicKey: key.publicKey };
};

/** Signs the 32-byte challenge with the linking key: a DER-encoded ECDSA signature, hex. */
export const signChallenge = (k1: string, privateKey: Uint8Array): string => {
  const sig = secp256k1.sign(hex.decode(k1), privateKey, { prehash: false, format: "der" });
  return hex.encode(sig);
};

/** True when `sig` (DER hex) by `key` (compressed hex) signs `k1` (hex): what a service checks. */
export const verifyChallenge = (k1: string, sig: string, key: string): boolean => {
  try {
    return secp256k1.verify(hex.decode(sig), hex.decode(k1), hex.decode(key), {
      prehash: false,
      format: "der",
      lowS: false,
    });
  } catch {
    return false;
  }
};

/** The challenge of an LNURL-auth URL: `k1`, 32 bytes as hex. Null when missing or malformed. */
export const challengeOf = (url: URL): string | null => {
  const k1 = url.searchParams.get("k1");
  return k1 && /^[0-9a-fA-F]{64}$/.test(k1) ? k1.toLowerCase() : null;
};

/** `<lnurl>&sig=<hex>&key=<hex>`: the call that logs in (LUD-04 step 3). */
export const loginUrl = (url: URL, root: HDKey): URL | null => {
  const k1 = challengeOf(url);
  if (k1 === null) return null;
  const key = linkingKey(root, url.hostname);
  const signed = new URL(url);
  signed.searchParams.set("sig", signChallenge(k1, key.privateKey));
  signed.searchParams.set("key", hex.encode(key.publicKey));
  return signed;
};

/** LUD-04 actions the dialog may name. */
export const AUTH_ACTIONS = ["register", "login", "link", "auth"] as const;
export type AuthAction = (typeof AUTH_ACTIONS)[number];

export const actionOf = (url: URL): AuthAction | null => {
  const a = url.searchParams.get("action");
  return (AUTH_ACTIONS as readonly string[]).includes(a ?? "") ? (a as AuthAction) : null;
};
