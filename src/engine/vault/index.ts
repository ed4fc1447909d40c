/**
 * The vault: password-based encryption for the seed, engine blobs at rest and password-protected exports.
 *
 * - One-off (exports, imports): `sealWithPassword` / `openWithPassword`, `sealJson` / `openJson`.
 * - At rest: unlock once with `createVaultKey` (new password) or `deriveVaultKey` (from any envelope the
 *   key sealed, e.g. the stored seed), then `sealWithKey` / `openWithKey` and their JSON forms, with no
 *   KDF run per blob.
 *
 * Envelope format and cryptography: `format.ts`. Failures: `WrongPassword`, `InvalidInput`, `Unexpected`
 * from `commands/errors`, and `VaultCorrupt` from here.
 */
export {
  openJson,
  openJsonWithKey,
  openWithKey,
  openWithPassword,
  sealJson,
  sealJsonWithKey,
  sealWithKey,
  sealWithPassword,
} from "./envelope";
export { VAULT_CORRUPT_TEXT, VaultCorrupt } from "./errors";
export {
  type CipherHeader,
  type Envelope,
  type KdfHeader,
  MAX_ITERATIONS,
  MIN_ITERATIONS,
  VAULT_FORMAT,
  VAULT_VERSION,
} from "./format";
export { createVaultKey, DEFAULT_KDF_PARAMS, deriveVaultKey, type KdfParams, type VaultKey } from "./key";
