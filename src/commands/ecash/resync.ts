/**
 * Federation resync (spec 2, offered only in safe mode): the owner confirms, the wallet recovers what one
 * custodian holds for it (a Cashu mint: NUT-09 restore from the seed; a Fedimint federation: its client's
 * recovery) in the background, and the screen polls the progress each second until it is done. What was
 * found beyond what the log counted is recorded as restored when it ends.
 */
import { Effect } from "effect";
import { WalletState } from "../../errors";
import type { Handler, Needs } from "../context";
import { outcome } from "../context";
import { historyBack, noFederation } from "./common";

const joined = (states: Parameters<Handler<"ResyncFederation">>[1]["states"], id: string) =>
  states.ecash.custodians.get(id)?.joined === true;

export const resyncFederation: Handler<"ResyncFederation"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!ctx.states.wallet.safe_mode)
      return yield* Effect.fail(
        new WalletState({
          message: "Resync is offered only in safe mode.",
          key: "federations.resync_safe_mode",
        }),
      );
    if (!joined(ctx.states, cmd.federationId)) return yield* Effect.fail(noFederation());
    yield* historyBack(ctx);
    const port = ctx.ecash;
    if (!port)
      return yield* Effect.fail(
        new WalletState({
          message: "Ecash is still starting; try again in a moment.",
          key: "error_ecash_not_ready",
        }),
      );
    yield* Effect.promise(() => port.resync(cmd.federationId));
    return outcome(null);
  });

export const federationResyncProgress: Handler<"FederationResyncProgress"> = (cmd, ctx) =>
  Effect.sync(() => {
    const p = ctx.ecash?.resyncProgress(cmd.federationId) ?? null;
    return outcome(
      p && {
        total: p.total,
        complete: p.complete,
        done: p.done,
        recoveredSats: p.recoveredSats,
        error: p.error,
      },
    );
  });

export const ecashRestoreProgress: Handler<"EcashRestoreProgress"> = (_cmd, ctx) =>
  Effect.sync(() => {
    const p = ctx.ecash?.restoreProgress() ?? null;
    return outcome(
      p && {
        mint: p.mint,
        keyset: p.keyset ?? 0,
        keysets: p.keysets ?? 0,
        proofs: p.proofs ?? 0,
        complete: p.complete,
        total: p.total,
      },
    );
  });

export const resyncHandlers = {
  ResyncFederation: resyncFederation,
  FederationResyncProgress: federationResyncProgress,
  EcashRestoreProgress: ecashRestoreProgress,
} as const;

export const resyncNeeds: Needs = {
  ResyncFederation: "ecash",
  FederationResyncProgress: "ecash",
  EcashRestoreProgress: "ecash",
};
