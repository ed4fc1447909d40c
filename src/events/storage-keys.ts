/**
 * Every key of the `kv` table, in one place. Values under these keys are engine blobs and secrets; they
 * are written in the same transaction as the events that record their change.
 */
export const KV = {
  /** The BIP39 mnemonic: `{ mnemonic }` in the clear, or a vault envelope when a password is set. */
  seed: "seed",
  /** This device's id (hex), also its Automerge actor. */
  device: "device",
} as const;

export type KvKey = (typeof KV)[keyof typeof KV];

/** Keys whose values are secret: never exported unencrypted, never sent to the main thread. */
export const SECRET_KV_KEYS: readonly string[] = [KV.seed];
