import type { WalletDb } from "./db";
import { newEvent } from "./make";

/** The wallet joined the Cashu mint at `mint` (its invite is its URL), named `name`, with no welcome or end date. */
export const joinedCashu = (mint: string, name: string) =>
  newEvent("ecash.joined", { mint, kind: "cashu", name, welcome: "", expires_at: null, invite: mint });

/** Closes each of `dbs` and deletes it: a test leaves no database behind. */
export const dropDbs = async (...dbs: readonly WalletDb[]): Promise<void> => {
  for (const db of dbs) {
    db.close();
    await db.delete();
  }
};
