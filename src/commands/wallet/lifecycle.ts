/**
 * The commands that unlock, re-key, save, replace or delete the wallet, and start an engine again. They
 * are handlers like every other; what they need beyond the handler context (stop the engines, read the
 * log and the secrets again, start the engines) is the host's lifecycle port (`lifecycle-port.ts`).
 */
import { Effect } from "effect";
import { normaliseWords } from "../../engine/keys/mnemonic";
import { unexpected, type WalletError } from "../../errors";
import { crdtProjection } from "../../projections/crdt";
import { lockedError } from "./at-rest";
import type { CommandTag } from "../command";
import { type Handler, type HandlerContext, type Outcome, outcome } from "../context";
import type { WalletLifecycle } from "../lifecycle-port";
import { deleteEverything, exportState, importStateEvents } from "./state-file";
import { checkRestoreWords, restoreWallet } from "./wallet";

/** Runs `f` with the host's lifecycle port; a handler called without one (a unit test) says so. */
export const withLifecycle = <A>(
  ctx: HandlerContext,
  f: (l: WalletLifecycle) => Effect.Effect<A, WalletError>,
): Effect.Effect<Outcome<A>, WalletError> =>
  ctx.lifecycle
    ? f(ctx.lifecycle).pipe(Effect.map((r) => outcome(r)))
    : Effect.fail(unexpected(new Error("This command runs in the wallet's host.")));

/** The engines that write the wallet's money state stop (writing it) before the log or the store is replaced. */
const whileStopped = <A>(l: WalletLifecycle, f: () => Effect.Effect<A, WalletError>) =>
  Effect.promise(() => l.stopEngines(["lightning", "ecash"])).pipe(Effect.flatMap(f));

const unlock: Handler<"Unlock"> = (cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    l.secrets
      .run(() => l.secrets.unlock(cmd.password))
      .pipe(
        Effect.tap((opened) =>
          opened
            ? Effect.promise(async () => {
                l.setLive({ needs_password: false });
                await l.unlocked();
              })
            : Effect.void,
        ),
        Effect.as(null),
      ),
  );

const changePassword: Handler<"ChangePassword"> = (cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    l.secrets
      .run(() =>
        l.secrets.changePassword(cmd, {
          exists: ctx.states.wallet.exists,
          backedUp: ctx.states.wallet.has_backed_up,
        }),
      )
      .pipe(
        Effect.tap((r) =>
          Effect.sync(() => l.setLive({ has_password: r.hasPassword, needs_password: false })),
        ),
      ),
  );

const exportStateFile: Handler<"ExportState"> = (cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    l.secrets.locked
      ? Effect.fail(lockedError())
      : exportState(
          l.db,
          l.crdtMissing ? null : crdtProjection.view(ctx.states.crdt),
          ctx.network,
          ctx.states.wallet.walletId ?? "",
          cmd.password,
          l.cipher,
          ctx.stamp.now(),
          l.secrets.atRest(),
        ),
  );

const importStateFile: Handler<"ImportState"> = (cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    // The node stops (writing its state) before anything of the file lands: nothing may write after.
    whileStopped(l, () =>
      importStateEvents(
        l.db,
        cmd.text,
        cmd.password,
        ctx.network,
        // While locked the secrets on this device cannot be merged with: the file replaces them.
        l.secrets.locked ? null : ctx.states.wallet.walletId,
        l.cipher,
        l.secrets.atRest(),
      ),
    ).pipe(
      // What the log became is known from the import's own transaction: folded without reading it back.
      Effect.tap((written) => Effect.promise(() => l.reload(written))),
      Effect.map(({ imported }) => ({ imported })),
      // Imported or refused, the wallet runs again (a refused file changed nothing).
      Effect.ensuring(Effect.promise(() => l.startEngines())),
    ),
  );

/** A restore that replaces the wallet on this device removes it first; without one it is a plain restore. */
const restoreReplacing: Handler<"RestoreWallet"> = (cmd, ctx) => {
  if (!cmd.replace || !ctx.states.wallet.exists) return restoreWallet(cmd, ctx);
  // Replacing: the words are checked before anything of the current wallet is removed.
  const problem = checkRestoreWords(normaliseWords(cmd.words.join(" ")));
  if (problem) return Effect.fail(problem);
  const l = ctx.lifecycle;
  if (!l) return Effect.fail(unexpected(new Error("This command runs in the wallet's host.")));
  return whileStopped(l, () => deleteEverything(l.db)).pipe(
    Effect.tap(() => Effect.promise(() => l.reload())),
    // `ctx.states` is read anew: the restore decides on the empty wallet the delete left.
    Effect.flatMap(() => restoreWallet(cmd, ctx)),
  );
};

const deleteWallet: Handler<"DeleteEverything"> = (_cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    whileStopped(l, () => deleteEverything(l.db)).pipe(
      // The federations' clients keep their own databases: deleted with the wallet.
      Effect.tap(() =>
        Effect.promise(() =>
          import("../../engine/ecash/fedimint/clients")
            .then((m) => m.deleteClientDatabases(ctx.network))
            .catch(() => undefined),
        ),
      ),
      Effect.tap(() => Effect.promise(() => l.reload())),
      Effect.as(null),
    ),
  );

const stopLightning: Handler<"StopLightning"> = (_cmd, ctx) =>
  withLifecycle(ctx, (l) => whileStopped(l, () => Effect.succeed(null)));

const startLightning: Handler<"StartLightning"> = (_cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    ctx.keys.mnemonic().pipe(
      Effect.tap((mnemonic) => Effect.sync(() => l.startNeeded(mnemonic))),
      Effect.as(null),
    ),
  );

/** A fresh port has an empty scan cache: the next sync looks at every address again. */
const resyncOnchain: Handler<"ResyncOnchain"> = (_cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    ctx.keys.mnemonic().pipe(
      Effect.flatMap((mnemonic) => Effect.promise(() => l.restartEngine("onchain", mnemonic))),
      Effect.flatMap(() => l.handle({ _tag: "SyncOnchain" })),
      Effect.as(null),
    ),
  );

type LifecycleCommands =
  | "Unlock"
  | "ChangePassword"
  | "ExportState"
  | "ImportState"
  | "RestoreWallet"
  | "DeleteEverything"
  | "StopLightning"
  | "StartLightning"
  | "ResyncOnchain";

export const lifecycleHandlers: { readonly [K in Extract<CommandTag, LifecycleCommands>]: Handler<K> } = {
  Unlock: unlock,
  ChangePassword: changePassword,
  ExportState: exportStateFile,
  ImportState: importStateFile,
  RestoreWallet: restoreReplacing,
  DeleteEverything: deleteWallet,
  StopLightning: stopLightning,
  StartLightning: startLightning,
  ResyncOnchain: resyncOnchain,
};
