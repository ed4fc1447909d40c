/**
 * The owner's wallet-connect commands that need the running service: a connection's URI, and approving or
 * denying the payments an app asked for that wait in the requests tab (the desk in `desk.ts` decides).
 */
import { Effect } from "effect";
import { InvalidInput, unexpected, type WalletError, WalletState } from "../../errors";
import type { CommandTag } from "../command";
import type { Handler, HandlerContext } from "../context";
import type { NwcDeskPort } from "../lifecycle-port";
import { withLifecycle } from "../wallet";
import { HELD_REFUSAL_KEYS } from "./budget";

/** Runs `f` with the desk the wallet-connect engine's module lends the host. */
const withDesk = <A>(ctx: HandlerContext, f: (desk: NwcDeskPort) => Effect.Effect<A, WalletError>) =>
  withLifecycle(ctx, (l) =>
    l.services.nwcDesk
      ? f(l.services.nwcDesk)
      : Effect.fail(unexpected(new Error("The wallet-connect desk runs in the wallet's host."))),
  );

const getNwcUri: Handler<"GetNwcUri"> = (cmd, ctx) =>
  withLifecycle(ctx, (l) =>
    // A connection just made may be asked for before its service started: it is started and awaited.
    Effect.promise(async () => {
      if (!l.port("nwc") && l.services.nwcDesk?.enabled()) {
        await l.startEngines();
        await l.whenStarted("nwc");
      }
      const port = l.port("nwc");
      // The URI is given once the relay listens for its connection: the app may use it at once.
      await port?.ready();
      return port;
    }).pipe(
      Effect.flatMap((port) =>
        port
          ? Effect.succeed({ uri: port.uri(cmd.index) })
          : Effect.fail(
              new WalletState({
                message: "The wallet-connect service is not running.",
                key: "settings.connections.error_not_running",
              }),
            ),
      ),
    ),
  );

const approveNwcInvoice: Handler<"ApproveNwcInvoice"> = (cmd, ctx) =>
  withDesk(ctx, (desk) =>
    Effect.promise(() => desk.approve(cmd.id)).pipe(
      Effect.flatMap((r) =>
        typeof r === "string"
          ? Effect.fail(
              new InvalidInput({ message: r, key: HELD_REFUSAL_KEYS[r] ?? "home.requests.error_gone" }),
            )
          : Effect.succeed(r),
      ),
    ),
  );

const denyNwcInvoice: Handler<"DenyNwcInvoice"> = (cmd, ctx) =>
  withDesk(ctx, (desk) => Effect.promise(() => desk.deny([cmd.id])).pipe(Effect.as(null)));

const denyAllNwc: Handler<"DenyAllNwc"> = (_cmd, ctx) =>
  withDesk(ctx, (desk) =>
    Effect.promise(() => desk.deny([...ctx.states.nwc.requests.keys()])).pipe(
      Effect.map((denied) => ({ denied })),
    ),
  );

type OwnerCommands = "GetNwcUri" | "ApproveNwcInvoice" | "DenyNwcInvoice" | "DenyAllNwc";

export const nwcOwnerHandlers: { readonly [K in Extract<CommandTag, OwnerCommands>]: Handler<K> } = {
  GetNwcUri: getNwcUri,
  ApproveNwcInvoice: approveNwcInvoice,
  DenyNwcInvoice: denyNwcInvoice,
  DenyAllNwc: denyAllNwc,
};
