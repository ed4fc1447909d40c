/**
 * Every key of the `kv` table, in one place. Values under these keys are engine blobs and secrets; they
 * are written in the same transaction as the events that record their change.
 */
export const KV = {
  /** The BIP39 mnemonic: `{ mnemonic }` in the clear, or a vault envelope when a password is set. */
  seed: "seed",
  /** The nostr secret key (`{ nsec }`), sealed like the seed when a password is set. */
  nostrSecret: "nostr/secret",
  /** This device's id (hex), also its Automerge actor. */
  device: "device",
  /**
   * Present only while a password is set: a vault envelope of a fixed text, sealed with the key that
   * seals every secret. It carries the KDF parameters and tells a right password from a wrong one.
   */
  vault: "vault",
} as const;

export type KvKey = (typeof KV)[keyof typeof KV];

/**
 * Engine blobs (lightning monitors, manager, graph; ecash proofs and counters): kv entries whose key starts
 * with one of these prefixes, with `Uint8Array` values. They are secrets: sealed at rest when a password is
 * set.
 */
export const ENGINE_BLOB_PREFIX = "ln/";
export const ECASH_BLOB_PREFIX = "ecash/";
/**
 * This device's own record of the storage server (its id there, the versions it last wrote): written with
 * the lightning blobs in one transaction, never exported (another device has its own).
 */
export const STORAGE_BLOB_PREFIX = "storage/";

/** Keys whose values are secret: never exported unencrypted, never sent to the main thread. */
export const SECRET_KV_KEYS: readonly string[] = [KV.seed, KV.nostrSecret];

export const isEngineBlobKey = (key: string): boolean =>
  key.startsWith(ENGINE_BLOB_PREFIX) ||
  key.startsWith(ECASH_BLOB_PREFIX) ||
  key.startsWith(STORAGE_BLOB_PREFIX);

/** Whether a kv entry is sealed at rest when a password is set. */
export const isSecretKey = (key: string): boolean => SECRET_KV_KEYS.includes(key) || isEngineBlobKey(key);
