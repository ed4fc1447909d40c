import type { ChannelSnapshot } from "../../events/types";
import type { ChannelInfo } from "./node-types";

/** The node's channels as the log records them (amounts as decimal strings). */
export const snapshotOf = (channels: readonly ChannelInfo[]): ChannelSnapshot[] =>
  channels.map((c) => ({
    channel_id: c.channelId,
    peer: c.peer,
    outpoint: c.outpoint,
    size: c.sizeSats.toString(),
    balance: c.outboundSats.toString(),
    sendable: c.sendableSats.toString(),
    reserve: c.reserveSats.toString(),
    inbound: c.inboundSats.toString(),
    // Whether the peer is online right now is live state, not history: a ready channel counts as usable.
    is_usable: c.isReady,
    is_ready: c.isReady,
  }));
