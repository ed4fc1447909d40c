import { Effect } from "effect";
import { onchainDetails } from "../../projections/activity";
import { type Handler, outcome } from "../context";

/** The details behind an OnChain activity row, from the folded log. */
export const getTransaction: Handler<"GetTransaction"> = (cmd, ctx) => {
  const tx = ctx.states.onchain.txs.get(cmd.txid);
  return Effect.succeed(outcome(tx ? onchainDetails(tx) : null));
};
