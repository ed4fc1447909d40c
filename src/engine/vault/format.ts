import { base64 } from "@scure/base";
import { vaultCorrupt } from "./errors";

/**
 * The vault envelope, version 1: plain JSON that carries everything needed to open it except the password.
 *
 * ```json
 * {
 *   "format": "vault",
 *   "v": 1,
 *   "kdf": { "name": "PBKDF2-SHA256", "iterations": 600000, "saltB64": "…16 bytes…", "checkB64": "…16 bytes…" },
 *   "cipher": { "name": "AES-256-GCM", "nonceB64": "…12 bytes…" },
 *   "ciphertextB64": "…ciphertext followed by the 16-byte tag…"
 * }
 * ```
 *
 * - `kdf`: PBKDF2-SHA256 over the NFC-normalised UTF-8 password and the salt gives 32 bytes; HKDF-SHA256
 *   splits them into the AES-256-GCM key and a 16-byte password check (`checkB64`). The check tells a wrong
 *   password apart from damaged data; it reveals nothing an attacker could not already test against the
 *   ciphertext itself.
 * - `cipher`: AES-256-GCM with a fresh random 12-byte nonce per envelope. The additional data is the whole
 *   header (`headerBytes`), so changing the format, version, any KDF parameter or the nonce is detected.
 * - All base64 is standard, padded and strict. Fields not listed here are ignored when reading.
 */
export const VAULT_FORMAT = "vault";
export const VAULT_VERSION = 1;
export const KDF_NAME = "PBKDF2-SHA256";
export const CIPHER_NAME = "AES-256-GCM";

export const SALT_BYTES = 16;
export const CHECK_BYTES = 16;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/** New envelopes use at least this many PBKDF2 iterations (OWASP 2023 for PBKDF2-HMAC-SHA256). */
export const MIN_ITERATIONS = 600_000;
/**
 * Reading accepts stored counts from 1 up to this bound, so parameters can be raised later while a
 * hostile file cannot keep the tab busy for hours.
 */
export const MAX_ITERATIONS = 20_000_000;

export interface KdfHeader {
  readonly name: typeof KDF_NAME;
  readonly iterations: number;
  readonly saltB64: string;
  readonly checkB64: string;
}

export interface CipherHeader {
  readonly name: typeof CIPHER_NAME;
  readonly nonceB64: string;
}

export interface Envelope {
  readonly format: typeof VAULT_FORMAT;
  readonly v: typeof VAULT_VERSION;
  readonly kdf: KdfHeader;
  readonly cipher: CipherHeader;
  readonly ciphertextB64: string;
}

/** An envelope whose fields were checked, with its binary fields decoded. */
export interface ParsedEnvelope {
  readonly envelope: Envelope;
  readonly salt: Uint8Array<ArrayBuffer>;
  readonly check: Uint8Array<ArrayBuffer>;
  readonly nonce: Uint8Array<ArrayBuffer>;
  readonly ciphertext: Uint8Array<ArrayBuffer>;
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

export const encodeB64 = (bytes: Uint8Array): string => base64.encode(bytes);

const decodeB64 = (value: unknown, field: string): Uint8Array<ArrayBuffer> => {
  if (typeof value !== "string") throw vaultCorrupt(`${field} is missing`);
  try {
    return new Uint8Array(base64.decode(value));
  } catch {
    throw vaultCorrupt(`${field} is not valid base64`);
  }
};

const exactLength = (bytes: Uint8Array<ArrayBuffer>, length: number, field: string) => {
  if (bytes.length !== length) throw vaultCorrupt(`${field} must be ${length} bytes`);
  return bytes;
};

export const isIterationCount = (n: unknown): n is number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 1 && n <= MAX_ITERATIONS;

/** Checks an envelope read from storage or a file; throws `VaultCorrupt` naming the first problem. */
export const parseEnvelope = (input: unknown): ParsedEnvelope => {
  if (!isRecord(input)) throw vaultCorrupt("not an object");
  if (input.format !== VAULT_FORMAT) throw vaultCorrupt("unknown format");
  if (input.v !== VAULT_VERSION) throw vaultCorrupt("unknown version");
  const { kdf, cipher } = input;
  if (!isRecord(kdf)) throw vaultCorrupt("kdf is missing");
  if (kdf.name !== KDF_NAME) throw vaultCorrupt("unknown key derivation");
  if (!isIterationCount(kdf.iterations)) throw vaultCorrupt("kdf.iterations is out of range");
  if (!isRecord(cipher)) throw vaultCorrupt("cipher is missing");
  if (cipher.name !== CIPHER_NAME) throw vaultCorrupt("unknown cipher");
  const salt = exactLength(decodeB64(kdf.saltB64, "kdf.saltB64"), SALT_BYTES, "kdf.saltB64");
  const check = exactLength(decodeB64(kdf.checkB64, "kdf.checkB64"), CHECK_BYTES, "kdf.checkB64");
  const nonce = exactLength(decodeB64(cipher.nonceB64, "cipher.nonceB64"), NONCE_BYTES, "cipher.nonceB64");
  const ciphertext = decodeB64(input.ciphertextB64, "ciphertextB64");
  if (ciphertext.length < TAG_BYTES) throw vaultCorrupt("ciphertextB64 is too short");
  const envelope: Envelope = {
    format: VAULT_FORMAT,
    v: VAULT_VERSION,
    kdf: {
      name: KDF_NAME,
      iterations: kdf.iterations,
      saltB64: kdf.saltB64 as string,
      checkB64: kdf.checkB64 as string,
    },
    cipher: { name: CIPHER_NAME, nonceB64: cipher.nonceB64 as string },
    ciphertextB64: input.ciphertextB64 as string,
  };
  return { envelope, salt, check, nonce, ciphertext };
};

/** The AES-GCM additional data: every header field, in a fixed order, as stored. */
export const headerBytes = (kdf: KdfHeader, cipher: CipherHeader): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(
    JSON.stringify([
      VAULT_FORMAT,
      VAULT_VERSION,
      kdf.name,
      kdf.iterations,
      kdf.saltB64,
      kdf.checkB64,
      cipher.name,
      cipher.nonceB64,
    ]),
  );
