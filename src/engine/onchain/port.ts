import type { Effect } from "effect";
import type { WalletError } from "../../commands/errors";
import type { NewEvent } from "../../events/make";
import type { OnchainState } from "../../projections/onchain";

/**
 * The on-chain wallet (BIP84 over an Esplora API) as the handlers see it. It reads the folded
 * `OnchainState` and answers with new events; it never writes the log itself.
 */
export interface OnchainPort {
  /** Scans the chain for the wallet's addresses and returns what changed since `state`. */
  readonly sync: (state: OnchainState) => Effect.Effect<readonly NewEvent[], WalletError>;
}
