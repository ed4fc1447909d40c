import { Data } from "effect";

/**
 * The vault's own failure besides the shared ones from `commands/errors` (`WrongPassword`,
 * `InvalidInput`, `Unexpected`): the stored envelope is not one the vault can read, or its contents were
 * changed after sealing. `reason` says which check failed, for logs; it never holds secret material.
 */
export class VaultCorrupt extends Data.TaggedError("VaultCorrupt")<{
  readonly message: string;
  readonly reason: string;
}> {}

export const VAULT_CORRUPT_TEXT = "The encrypted data is damaged or not in a known format.";

export const vaultCorrupt = (reason: string): VaultCorrupt =>
  new VaultCorrupt({ message: VAULT_CORRUPT_TEXT, reason });
