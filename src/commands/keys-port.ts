import type { Effect } from "effect";
import type { WalletError } from "../errors";

/** The seed, when the wallet has one and it is unlocked. */
export interface KeysPort {
  readonly mnemonic: () => Effect.Effect<string, WalletError>;
  /** The nsec the owner imported (a sealed kv secret), or null when the seed's key is in use. */
  readonly nostrSecret?: () => Effect.Effect<string | null, WalletError>;
}
