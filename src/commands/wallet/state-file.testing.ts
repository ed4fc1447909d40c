import { Effect } from "effect";
import type { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { foldEvents } from "../../projections";
import { crdtProjection } from "../../projections/crdt";
import { makeStateCipher } from "./state-cipher";
import { exportState } from "./state-file";

/** A state file's cipher with one stretch: for tests, where the password's strength is not the point. */
export const weakStateCipher = makeStateCipher({ iterations: 1, allowWeak: true });

/** The state file of the wallet in `db`, as its owner exports it, sealed with `password` (weakStateCipher). */
export const stateFileOf = async (db: WalletDb, password = "pw") => {
  const states = foldEvents(await readEvents(db));
  return Effect.runPromise(
    exportState(
      db,
      crdtProjection.view(states.crdt),
      "regtest",
      states.wallet.walletId ?? "",
      password,
      weakStateCipher,
      1,
    ),
  );
};
