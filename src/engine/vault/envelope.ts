import { Unexpected, wrongPassword } from "../../errors";
import { vaultCorrupt } from "./errors";
import {
  type Envelope,
  encodeB64,
  headerBytes,
  NONCE_BYTES,
  type ParsedEnvelope,
  parseEnvelope,
  VAULT_FORMAT,
  VAULT_VERSION,
} from "./format";
import { createVaultKey, DEFAULT_KDF_PARAMS, type KdfParams, keyForEnvelope, type VaultKey } from "./key";

/**
 * Sealing and opening. Every function returns a promise that rejects with a tagged error:
 * `WrongPassword` ('Incorrect password entered.') when the password or key does not fit,
 * `VaultCorrupt` when the envelope is malformed or was changed after sealing, `InvalidInput` for an
 * empty password when sealing, `Unexpected` for a caller's mistake (weak parameters, a value that is
 * not JSON). See `format.ts` for the envelope.
 */

const sameKdf = (a: Envelope["kdf"], b: Envelope["kdf"]) =>
  a.iterations === b.iterations && a.saltB64 === b.saltB64 && a.checkB64 === b.checkB64;

/** Encrypts with an unlocked key: a fresh nonce, the key's KDF header, no KDF run. */
export const sealWithKey = async (key: VaultKey, plaintext: Uint8Array): Promise<Envelope> => {
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const cipher = { name: "AES-256-GCM", nonceB64: encodeB64(nonce) } as const;
  const input = new Uint8Array(plaintext);
  const ciphertext = await globalThis.crypto.subtle
    .encrypt(
      { name: "AES-GCM", iv: nonce, additionalData: headerBytes(key.kdf, cipher), tagLength: 128 },
      key.aesKey,
      input,
    )
    .finally(() => input.fill(0));
  return {
    format: VAULT_FORMAT,
    v: VAULT_VERSION,
    kdf: key.kdf,
    cipher,
    ciphertextB64: encodeB64(new Uint8Array(ciphertext)),
  };
};

const decrypt = async (key: VaultKey, parsed: ParsedEnvelope): Promise<Uint8Array> => {
  const { envelope, nonce, ciphertext } = parsed;
  try {
    const plaintext = await globalThis.crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: nonce,
        additionalData: headerBytes(envelope.kdf, envelope.cipher),
        tagLength: 128,
      },
      key.aesKey,
      ciphertext,
    );
    return new Uint8Array(plaintext);
  } catch {
    // The password check passed, so the key is right: the header or ciphertext was changed.
    throw vaultCorrupt("authentication failed");
  }
};

/**
 * Decrypts with an unlocked key. An envelope sealed under another key (another password or salt)
 * fails with `WrongPassword`.
 */
export const openWithKey = async (key: VaultKey, envelope: unknown): Promise<Uint8Array> => {
  const parsed = parseEnvelope(envelope);
  if (!sameKdf(parsed.envelope.kdf, key.kdf)) throw wrongPassword();
  return decrypt(key, parsed);
};

/** Encrypts under a new key from `password` (PBKDF2-SHA256, 600,000 iterations unless `params` says more). */
export const sealWithPassword = async (
  plaintext: Uint8Array,
  password: string,
  params: KdfParams = DEFAULT_KDF_PARAMS,
): Promise<Envelope> => sealWithKey(await createVaultKey(password, params), plaintext);

/** Decrypts with a password, using the KDF parameters stored in the envelope. */
export const openWithPassword = async (envelope: unknown, password: string): Promise<Uint8Array> => {
  const parsed = parseEnvelope(envelope);
  return decrypt(await keyForEnvelope(password, parsed), parsed);
};

const toJsonBytes = (value: unknown): Uint8Array => {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new Unexpected({
      message: `Vault: the value cannot be written as JSON (${e instanceof Error ? e.message : "unknown"})`,
      key: "common.unknown_error",
    });
  }
  if (text === undefined)
    throw new Unexpected({
      message: "Vault: the value cannot be written as JSON",
      key: "common.unknown_error",
    });
  return new TextEncoder().encode(text);
};

const fromJsonBytes = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw vaultCorrupt("plaintext is not JSON");
  } finally {
    bytes.fill(0);
  }
};

/** `sealWithPassword` for any JSON value (strings included). */
export const sealJson = async (value: unknown, password: string, params?: KdfParams): Promise<Envelope> => {
  const bytes = toJsonBytes(value);
  try {
    return await sealWithPassword(bytes, password, params);
  } finally {
    bytes.fill(0);
  }
};

/** Opens what `sealJson` sealed; the caller validates the shape of the value. */
export const openJson = async (envelope: unknown, password: string): Promise<unknown> =>
  fromJsonBytes(await openWithPassword(envelope, password));

/** `sealWithKey` for any JSON value. */
export const sealJsonWithKey = async (key: VaultKey, value: unknown): Promise<Envelope> => {
  const bytes = toJsonBytes(value);
  try {
    return await sealWithKey(key, bytes);
  } finally {
    bytes.fill(0);
  }
};

/** Opens what `sealJsonWithKey` (or `sealJson` with the same key's password) sealed. */
export const openJsonWithKey = async (key: VaultKey, envelope: unknown): Promise<unknown> =>
  fromJsonBytes(await openWithKey(key, envelope));
