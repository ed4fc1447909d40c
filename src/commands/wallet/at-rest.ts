import {
  createVaultKey,
  deriveVaultKey,
  type KdfParams,
  openJsonWithKey,
  openWithKey,
  sealJsonWithKey,
  sealWithKey,
  VAULT_FORMAT,
  type VaultKey,
} from "../../engine/vault";
import type { KvRow, WalletDb } from "../../events/db";
import { isEngineBlobKey, isSecretKey, KV } from "../../events/storage-keys";
import { InvalidInput, PasswordRequired, Unexpected, WalletState, wrongPassword } from "../../errors";

/**
 * Secrets at rest. Without a password, secret kv entries (the seed, the nostr key, engine blobs) hold
 * their values as they are. With one, each holds a vault envelope (AES-256-GCM, PBKDF2-SHA256 parameters
 * beside the ciphertext) sealed with one key, and `KV.vault` holds a check value sealed with the same key.
 * Engine blobs seal their bytes; other secrets seal their JSON.
 *
 * WebCrypto cannot run inside an IndexedDB transaction (the transaction would commit while it awaits),
 * so everything is sealed first and written afterwards in one transaction.
 */

/**
 * KDF parameters of a new wallet password: PBKDF2-SHA256 at 2,000,000 iterations, over three times the vault's
 * minimum, so unlocking takes about half a second to a second in a desktop browser (`npm run bench`
 * prints the figure). Stored beside each envelope, so they can be raised later without a migration.
 */
export const AT_REST_KDF_PARAMS: KdfParams = { iterations: 2_000_000 };

/** The text sealed in `KV.vault`; opening it proves the key is the one every secret was sealed with. */
const VAULT_CHECK = "wallet secrets v1";

export const isSealed = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  !(value instanceof Uint8Array) &&
  (value as { format?: unknown }).format === VAULT_FORMAT;

export const lockedError = () =>
  new PasswordRequired({
    message: "Enter your password to unlock the wallet.",
    key: "settings.decrypt.locked",
  });

/** What to store for a secret entry: the value itself without a key, an envelope with one. */
export const sealValue = async (
  key: VaultKey | null,
  storageKey: string,
  value: unknown,
): Promise<unknown> => {
  if (!key || !isSecretKey(storageKey)) return value;
  if (isEngineBlobKey(storageKey)) {
    if (!(value instanceof Uint8Array))
      throw new Unexpected({
        message: `The lightning node's saved data could not be kept or read (${storageKey}).`,
        key: "errors.engine_storage",
        values: { entry: storageKey },
      });
    return sealWithKey(key, value);
  }
  return sealJsonWithKey(key, value);
};

/** The value of a stored entry: opened with the key when sealed. Rejects when locked or damaged. */
export const openValue = async (
  key: VaultKey | null,
  storageKey: string,
  stored: unknown,
): Promise<unknown> => {
  if (!isSealed(stored)) return stored;
  if (!key) throw lockedError();
  return isEngineBlobKey(storageKey) ? openWithKey(key, stored) : openJsonWithKey(key, stored);
};

/** The stored check value, or undefined when no password is set. */
export const readVault = async (db: WalletDb): Promise<unknown> => (await db.kv.get(KV.vault))?.value;

/**
 * Unlocks with a password: derives the key from the stored check value's parameters and opens it.
 * `WrongPassword` ('Incorrect password entered.') when it does not fit.
 */
export const unlockVault = async (vault: unknown, password: string): Promise<VaultKey> => {
  const key = await deriveVaultKey(password, vault);
  if ((await openJsonWithKey(key, vault)) !== VAULT_CHECK) throw wrongPassword();
  return key;
};

export const newVaultKey = (password: string, params?: KdfParams): Promise<VaultKey> =>
  createVaultKey(password, params);

/** The check value stored in `KV.vault` for a key. */
export const vaultCheck = (key: VaultKey): Promise<unknown> => sealJsonWithKey(key, VAULT_CHECK);

/**
 * Re-seals every secret entry from `from` (null: stored in the clear) to `to` (null: remove the password),
 * and writes them together with the new check value in one transaction: a crash leaves either the old
 * state or the new one. The caller makes sure nothing else writes secrets meanwhile.
 */
export const rekeySecrets = async (
  db: WalletDb,
  from: VaultKey | null,
  to: VaultKey | null,
): Promise<void> => {
  const { rows, vault } = await db.transaction("r", db.kv, async () => ({
    rows: await db.kv.filter((r) => isSecretKey(r.key)).toArray(),
    vault: JSON.stringify((await db.kv.get(KV.vault))?.value ?? null),
  }));
  const next: KvRow[] = [];
  for (const row of rows) {
    const plain = await openValue(from, row.key, row.value);
    next.push({ key: row.key, value: await sealValue(to, row.key, plain) });
  }
  const check = to ? await vaultCheck(to) : null;
  await db.transaction("rw", db.kv, async () => {
    // The entries read above must still be sealed the way they were.
    if (JSON.stringify((await db.kv.get(KV.vault))?.value ?? null) !== vault)
      throw new WalletState({
        message: "The password changed meanwhile; try again.",
        key: "settings.encrypt.error_changed_meanwhile",
      });
    await db.kv.bulkPut(next);
    if (check) await db.kv.put({ key: KV.vault, value: check });
    else await db.kv.delete(KV.vault);
  });
};

/**
 * The rules of the password form (spec 2 §5): new and confirm match, new differs from the existing one,
 * blank means none. A password needs the wallet backed up first. Null when the change may go ahead.
 */
export const checkPasswordChange = (
  change: { readonly existing: string; readonly password: string; readonly confirm: string },
  backedUp: boolean,
): InvalidInput | null => {
  if (!backedUp)
    return new InvalidInput({
      message: "Back up your wallet before setting a password.",
      key: "settings.encrypt.error_backup",
    });
  if (change.password !== change.confirm)
    return new InvalidInput({ message: "Passwords do not match.", key: "settings.encrypt.error_match" });
  if (change.password === change.existing)
    return new InvalidInput({
      message: "The new password must be different from the existing one.",
      key: "settings.encrypt.error_same",
    });
  return null;
};
