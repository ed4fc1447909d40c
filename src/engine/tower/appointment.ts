/**
 * A watchtower appointment, as BOLT 13 (draft) and The Eye of Satoshi (teos) shape it: the tower is told,
 * for a commitment the partner has revoked, only a locator and an encrypted blob.
 *
 *   locator = the first 16 bytes of the revoked commitment's txid (internal byte order, as teos)
 *   blob    = ChaCha20-Poly1305(key = sha256(txid), nonce = 12 zero bytes, the signed justice transaction)
 *
 * The tower learns nothing until the revoked commitment is on chain: then the txid of a transaction in a
 * block gives both the locator to look up and the key to open the blob. Before that, a blob is opaque and
 * says nothing of which channel, wallet or amount it is for. Requests are signed (BIP-340) by the wallet's
 * tower key, derived from its seed, so nobody can store appointments in another wallet's name.
 */
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { schnorr } from "@noble/curves/secp256k1.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { hex } from "@scure/base";

export const LOCATOR_BYTES = 16;
/** The most a blob may be: a justice transaction of one input and one output is about 200 bytes. */
export const MAX_BLOB_BYTES = 1_024;
const NONCE = new Uint8Array(12);
const REQUEST_TAG = utf8ToBytes("watchtower/appointment/v1");

/** The locator of a commitment whose txid (internal byte order, 32 bytes) is `txid`. */
export const locatorOf = (txid: Uint8Array): Uint8Array => txid.slice(0, LOCATOR_BYTES);

/** Txid as explorers write it (reversed) to the internal byte order, and back. */
export const internalTxid = (displayTxid: string): Uint8Array => hex.decode(displayTxid).reverse();

export const encryptJustice = (justiceTx: Uint8Array, txid: Uint8Array): Uint8Array =>
  chacha20poly1305(sha256(txid), NONCE).encrypt(justiceTx);

/** The justice transaction in `blob`, or null when `txid` is not the commitment it was made for. */
export const decryptJustice = (blob: Uint8Array, txid: Uint8Array): Uint8Array | null => {
  try {
    return chacha20poly1305(sha256(txid), NONCE).decrypt(blob);
  } catch {
    return null;
  }
};

/** The wallet's tower key, from its lightning seed: the same on every device restored from the words. */
export const towerKey = (seed: Uint8Array): { secret: Uint8Array; user: string } => {
  const secret = hkdf(sha256, seed, utf8ToBytes("watchtower"), utf8ToBytes("tower-key/v1"), 32);
  return { secret, user: hex.encode(schnorr.getPublicKey(secret)) };
};

/** What a signed request commits to: the user, the locator and the blob. */
const requestDigest = (user: Uint8Array, locator: Uint8Array, blob: Uint8Array): Uint8Array =>
  sha256(concatBytes(REQUEST_TAG, user, locator, blob));

/** An appointment request as the wallet sends it (JSON, hex fields). */
export interface AppointmentRequest {
  readonly user: string;
  readonly locator: string;
  readonly blob: string;
  readonly signature: string;
}

export const signAppointment = (
  secret: Uint8Array,
  locator: Uint8Array,
  blob: Uint8Array,
): AppointmentRequest => {
  const user = schnorr.getPublicKey(secret);
  return {
    user: hex.encode(user),
    locator: hex.encode(locator),
    blob: hex.encode(blob),
    signature: hex.encode(schnorr.sign(requestDigest(user, locator, blob), secret)),
  };
};

/** The appointment for the revoked commitment `txid` (internal order): its justice transaction sealed. */
export const appointmentFor = (secret: Uint8Array, txid: Uint8Array, justiceTx: Uint8Array) =>
  signAppointment(secret, locatorOf(txid), encryptJustice(justiceTx, txid));

const isHex = (x: unknown, min: number, max: number): x is string =>
  typeof x === "string" &&
  x.length >= min * 2 &&
  x.length <= max * 2 &&
  x.length % 2 === 0 &&
  /^[0-9a-f]*$/.test(x);

/** A request read from a body and checked (shape, sizes, signature); or why not. */
export const readAppointment = (
  body: unknown,
): { ok: true; user: string; locator: Uint8Array; blob: Uint8Array } | { ok: false; reason: string } => {
  if (typeof body !== "object" || body === null) return { ok: false, reason: "not an appointment" };
  const b = body as Record<string, unknown>;
  if (!isHex(b.user, 32, 32)) return { ok: false, reason: "user must be a 32-byte key (hex)" };
  if (!isHex(b.locator, LOCATOR_BYTES, LOCATOR_BYTES))
    return { ok: false, reason: "locator must be 16 bytes (hex)" };
  // Sealed: at least the 16-byte tag and something of a transaction.
  if (!isHex(b.blob, 16 + 60, MAX_BLOB_BYTES)) return { ok: false, reason: "blob size out of bounds" };
  if (!isHex(b.signature, 64, 64)) return { ok: false, reason: "signature must be 64 bytes (hex)" };
  const user = hex.decode(b.user);
  const locator = hex.decode(b.locator);
  const blob = hex.decode(b.blob);
  let valid = false;
  try {
    valid = schnorr.verify(hex.decode(b.signature), requestDigest(user, locator, blob), user);
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: "bad signature" };
  return { ok: true, user: b.user, locator, blob };
};
