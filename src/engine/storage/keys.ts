/**
 * The storage keys of a wallet, all from its 12 words, so the words alone find, open and write its store
 * again (docs/decisions/0008-remote-storage.md):
 *
 *   BIP39 seed → BIP32 master → m/877'/0'   its private key is the input of HKDF-SHA256 (salt
 *                                           "mutiny-storage/v1") for three 32-byte keys: "data" seals the
 *                                           values (ChaCha20-Poly1305), "name-mac" and "name-enc" name them
 *   BIP32 master → m/877'/1'                its private key is the input of HKDF-SHA256 (same salt, info
 *                                           "auth:<purpose>:<server>") for one secp256k1 key per server
 *                                           and purpose: its public key is the store's owner at that server,
 *                                           and it signs the requests there (vss-server's signature
 *                                           authorizer), so a header seen by one server is no key at another
 *
 * 877 is the index LDK Node gives its storage keys; both are hardened, so nothing here reveals the on-chain
 * account (m/84'), the lightning node (m/535'/0') or the nostr key.
 */
import { mapHashToField } from "@noble/curves/abstract/modular.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { rootKey } from "../keys/mnemonic";

export const STORAGE_SEED_PATH = "m/877'/0'";
export const STORAGE_AUTH_PATH = "m/877'/1'";
const SALT = utf8ToBytes("mutiny-storage/v1");

export interface StorageKeys {
  /** Seals every value (ChaCha20-Poly1305, a fresh nonce per write). */
  readonly data: Uint8Array;
  /** Names keys deterministically (the synthetic nonce of a key's name). */
  readonly nameMac: Uint8Array;
  /** Encrypts key names, so a listing can be read back by the wallet alone. */
  readonly nameEnc: Uint8Array;
  /**
   * The root of the request keys: a server's own is `authSecretFor(keys, url)`. `authPubkey` (33 bytes,
   * compressed) is this root's public key, the owner of no store.
   */
  readonly authSecret: Uint8Array;
  readonly authPubkey: Uint8Array;
}

/**
 * What a request key is for: the wallet's store, or the device lock alone (the page holds a header for
 * the lock's release: it must reach nothing else).
 */
export type AuthPurpose = "store" | "lock";

/** The server a request key is made for: its URL's scheme, host (and port) and path, as `URL` spells them. */
export const serverIdentity = (url: string): string => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
};

/** The key that signs requests to the server at `url` for `purpose`: from the words and the server alone. */
export const authSecretFor = (keys: StorageKeys, url: string, purpose: AuthPurpose = "store"): Uint8Array =>
  mapHashToField(
    hkdf(sha256, keys.authSecret, SALT, utf8ToBytes(`auth:${purpose}:${serverIdentity(url)}`), 48),
    secp256k1.Point.CURVE().n,
  );

/** The owner (public key's hex) the server at `url` files the store of `purpose` under. */
export const ownerAt = (keys: StorageKeys, url: string, purpose: AuthPurpose = "store"): string =>
  bytesToHex(secp256k1.getPublicKey(authSecretFor(keys, url, purpose), true));

/** The keys from a storage seed and an auth secret (the words' derivation is `storageKeysOfWords`). */
export const storageKeys = (storageSeed: Uint8Array, authSecret: Uint8Array): StorageKeys => {
  const expand = (info: string) => hkdf(sha256, storageSeed, SALT, utf8ToBytes(info), 32);
  return {
    data: expand("data"),
    nameMac: expand("name-mac"),
    nameEnc: expand("name-enc"),
    authSecret,
    authPubkey: secp256k1.getPublicKey(authSecret, true),
  };
};

export const storageKeysOfWords = (mnemonic: string): StorageKeys => {
  const root = rootKey(mnemonic);
  const seed = root.derive(STORAGE_SEED_PATH).privateKey;
  const auth = root.derive(STORAGE_AUTH_PATH).privateKey;
  if (!seed || !auth) throw new Error("The storage keys could not be derived");
  return storageKeys(seed, auth);
};

/**
 * The store's id at the server: opaque and stable per network (one seed on regtest and mainnet keeps two
 * stores), at most vss-server's 120 characters.
 */
export const storeIdOf = (keys: StorageKeys, network: string): string =>
  bytesToHex(hmac(sha256, keys.nameMac, utf8ToBytes(`store:${network}`))).slice(0, 40);
