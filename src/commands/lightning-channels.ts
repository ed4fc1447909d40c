/**
 * Lightning peers and channels: the node's peers listed and removed, a channel's record read, and channels
 * closed. Connecting and opening (which wait on the peer with the queue released) are in `channel-open.ts`.
 */
import { Effect } from "effect";
import { channelDetails } from "../projections/activity";
import type { CommandSpecs } from "./command";
import { type Handler, type Needs, outcome } from "./context";
import { MIN_CHANNEL_SATS } from "../money";
import { call, nodeOf } from "./lightning";

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

export const closeChannel: Handler<"CloseChannel"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() =>
      cmd.abandon
        ? ln.node.abandonChannel(cmd.channelId)
        : ln.node.closeChannel(cmd.channelId, cmd.force === true),
    ).pipe(Effect.as(outcome(null))),
  );

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
