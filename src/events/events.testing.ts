import { newEvent } from "./make";

/** The wallet joined the Cashu mint at `mint` (its invite is its URL), named `name`, with no welcome or end date. */
export const joinedCashu = (mint: string, name: string) =>
  newEvent("ecash.joined", { mint, kind: "cashu", name, welcome: "", expires_at: null, invite: mint });
