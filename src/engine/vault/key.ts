import { InvalidInput, Unexpected, wrongPassword } from "../../errors";
import {
  CHECK_BYTES,
  encodeB64,
  isIterationCount,
  KDF_NAME,
  type KdfHeader,
  MIN_ITERATIONS,
  type ParsedEnvelope,
  parseEnvelope,
  SALT_BYTES,
} from "./format";

/**
 * Parameters for a new key. `iterations` below `MIN_ITERATIONS` are refused unless `allowWeak` is set,
 * which only tests do, to keep property runs fast. Reading never looks at these: it uses what the
 * envelope stored.
 */
export interface KdfParams {
  readonly iterations: number;
  readonly allowWeak?: boolean;
}

export const DEFAULT_KDF_PARAMS: KdfParams = { iterations: MIN_ITERATIONS };

/**
 * A password turned into a key once, so the wallet can unlock at start and then seal and open any
 * number of blobs without running the KDF again (`sealWithKey`, `openWithKey`). It carries the KDF
 * header it came from, which every envelope sealed with it repeats. The AES key is not extractable.
 */
export interface VaultKey {
  readonly kdf: KdfHeader;
  readonly aesKey: CryptoKey;
}

const subtle = (): SubtleCrypto => {
  const s = globalThis.crypto?.subtle;
  if (!s)
    throw new Unexpected({
      message: "Vault: WebCrypto (crypto.subtle) is not available",
      key: "common.unknown_error",
    });
  return s;
};

const AES_INFO = new TextEncoder().encode("vault v1 AES-256-GCM key");
const CHECK_INFO = new TextEncoder().encode("vault v1 password check");
const NO_SALT = new Uint8Array(0);

interface Derived {
  readonly aesKey: CryptoKey;
  readonly check: Uint8Array<ArrayBuffer>;
}

/** PBKDF2-SHA256 (password, salt) → 32 bytes → HKDF-SHA256 → AES-256-GCM key and password check. */
const derive = async (
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Derived> => {
  const s = subtle();
  const passwordBytes = new TextEncoder().encode(password.normalize("NFC"));
  const material = await s.importKey("raw", passwordBytes, "PBKDF2", false, ["deriveBits"]);
  passwordBytes.fill(0);
  const stretched = new Uint8Array(
    await s.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, 256),
  );
  const base = await s.importKey("raw", stretched, "HKDF", false, ["deriveKey", "deriveBits"]);
  stretched.fill(0);
  const aesKey = await s.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: NO_SALT, info: AES_INFO },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
  const check = new Uint8Array(
    await s.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: NO_SALT, info: CHECK_INFO },
      base,
      CHECK_BYTES * 8,
    ),
  );
  return { aesKey, check };
};

const requirePassword = (password: string) => {
  if (typeof password !== "string" || password.length === 0)
    throw new InvalidInput({ message: "Please enter a password.", key: "errors.password_required" });
};

/** Makes a key for new envelopes: a fresh random salt and the given (default: 600,000) iterations. */
export const createVaultKey = async (
  password: string,
  params: KdfParams = DEFAULT_KDF_PARAMS,
): Promise<VaultKey> => {
  requirePassword(password);
  const { iterations, allowWeak = false } = params;
  if (!isIterationCount(iterations))
    throw new Unexpected({
      message: `Vault: ${iterations} is not a usable PBKDF2 iteration count`,
      key: "common.unknown_error",
    });
  if (iterations < MIN_ITERATIONS && !allowWeak)
    throw new Unexpected({
      message: `Vault: ${iterations} PBKDF2 iterations is below the minimum of ${MIN_ITERATIONS} for new envelopes`,
      key: "common.unknown_error",
    });
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const { aesKey, check } = await derive(password, salt, iterations);
  return {
    kdf: { name: KDF_NAME, iterations, saltB64: encodeB64(salt), checkB64: encodeB64(check) },
    aesKey,
  };
};

/** Re-derives the key of a parsed envelope; `WrongPassword` when the password does not match its check. */
export const keyForEnvelope = async (password: string, parsed: ParsedEnvelope): Promise<VaultKey> => {
  if (typeof password !== "string" || password.length === 0) throw wrongPassword();
  const { kdf } = parsed.envelope;
  const { aesKey, check } = await derive(password, parsed.salt, kdf.iterations);
  if (!sameBytes(check, parsed.check)) throw wrongPassword();
  return { kdf, aesKey };
};

/**
 * Unlocks with a password: re-derives the key that sealed `envelope` (any envelope sealed with that key,
 * e.g. the stored seed), using the parameters stored in it. Fails with `VaultCorrupt` when the envelope
 * cannot be read and with `WrongPassword` when the password does not match, before any decryption.
 */
export const deriveVaultKey = (password: string, envelope: unknown): Promise<VaultKey> =>
  keyForEnvelope(password, parseEnvelope(envelope));

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
};
