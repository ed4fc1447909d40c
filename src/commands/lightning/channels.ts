/**
 * Lightning peers and channels: the node's peers listed and removed, a channel's record read, and channels
 * closed. Connecting and opening (which wait on the peer with the queue released) are in `channel-open.ts`.
 */
import { Effect } from "effect";
import { channelDetails } from "../../projections/activity";
import type { CommandSpecs } from "../command";
import { type Handler, type Needs, outcome } from "../context";
import { MIN_CHANNEL_SATS } from "../../money";
import { call, nodeOf } from "./lightning";
import { WalletState } from "../../errors";
import type { LiveState } from "../../projections/live";

export { MIN_CHANNEL_SATS };

export const getChannelEvent: Handler<"GetChannelEvent"> = (cmd, ctx) =>
  Effect.succeed(outcome(channelDetails(ctx.states.lightning, ctx.states.onchain, cmd.id)));

export const listPeers: Handler<"ListPeers"> = (_cmd, ctx) =>
  Effect.map(nodeOf(ctx), (ln) =>
    outcome(
      ln.node.peers().map((p) => ({
        pubkey: p.pubkey,
        address: p.address ? `${p.address.pubkey}@${p.address.host}:${p.address.port}` : null,
        connected: p.connected,
      })),
    ),
  );

export const disconnectPeer: Handler<"DisconnectPeer"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() => ln.node.disconnectPeer(cmd.pubkey)).pipe(Effect.as(outcome(null))),
  );

export const deletePeer: Handler<"DeletePeer"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() => ln.node.deletePeer(cmd.pubkey)).pipe(Effect.as(outcome(null))),
  );

/**
 * Why a force close cannot go out now, in the owner's words, from the live state: the node that must sign
 * and broadcast it does not run here (another device runs it, safe mode, it could not start), or it runs
 * but everything it says to the world waits for the storage server. Null: nothing stands in the way.
 */
export const forceCloseBlocked = (live: LiveState | undefined, running: boolean): WalletState | null => {
  const because = (key: string, message: string) => new WalletState({ message, key });
  if (running)
    return live?.storage_waiting_for?.includes("channels")
      ? because(
          "errors.force_close_waits_storage",
          "The force close is signed. It goes out as soon as the storage server has saved your channels.",
        )
      : null;
  switch (live?.lightning) {
    case "safe_mode":
      return because(
        "errors.force_close_safe_mode",
        "Lightning is off in safe mode: turn safe mode off to force close.",
      );
    case "failed":
      return (live.lock_remaining_secs ?? 0) > 0
        ? because(
            "errors.force_close_elsewhere",
            "Your channels run on another device now: force close them there.",
          )
        : because(
            "errors.force_close_stopped",
            "A force close needs this device's lightning node, which could not start. Home says why; once it runs, force close again.",
          );
    default:
      return because(
        "errors.force_close_not_running",
        "The lightning node is not running yet: force close once it has started.",
      );
  }
};

export const closeChannel: Handler<"CloseChannel"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const live = ctx.lifecycle?.live();
    if (cmd.force === true && !cmd.abandon) {
      const blocked = forceCloseBlocked(live, ctx.lightning !== null);
      // Not running: said at once, never left to a silent dialog.
      if (blocked && ctx.lightning === null) return yield* Effect.fail(blocked);
      const ln = yield* nodeOf(ctx);
      yield* call(() => ln.node.closeChannel(cmd.channelId, true));
      // Signed, and held until the storage server has the state it closes from: said so.
      const held = forceCloseBlocked(ctx.lifecycle?.live(), true);
      if (held) return yield* Effect.fail(held);
      return outcome(null);
    }
    const ln = yield* nodeOf(ctx);
    yield* call(() =>
      cmd.abandon
        ? ln.node.abandonChannel(cmd.channelId)
        : ln.node.closeChannel(cmd.channelId, cmd.force === true),
    );
    return outcome(null);
  });

export const channelHandlers = {
  GetChannelEvent: getChannelEvent,
  ListPeers: listPeers,
  DisconnectPeer: disconnectPeer,
  DeletePeer: deletePeer,
  CloseChannel: closeChannel,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };

/** The commands that use the node. */
export const channelNeeds: Needs = {
  ListPeers: "lightning",
  DisconnectPeer: "lightning",
  DeletePeer: "lightning",
  CloseChannel: "lightning",
};
