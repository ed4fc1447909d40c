/** What the projections' tests make their logs of: ids, and events stamped in order. */
import { type NewEvent, newEvent, stamp } from "../events/make";
import { foldEvents } from "./index";

/** An LSP's node id, and another peer's. */
export const LSP = `02${"aa".repeat(32)}`;
export const OTHER = `03${"bb".repeat(32)}`;

/** A 64-digit hex id (a payment hash, a txid) made of `n`. */
export const hash = (n: number) => n.toString(16).padStart(64, "0");

/** A 64-character channel id made of `n`. */
export const channel = (n: number) => `c${n}`.padStart(64, "0");

/** The states of `events` stamped on device "d", one a second after `start` (ms), each id of its own. */
export const fold = (events: NewEvent[], start = 1_000) => {
  let t = start;
  let id = 0;
  return foldEvents(stamp(events, { uuid: () => `e${++id}`, now: () => (t += 1000), device: "d" }));
};

/** The node's `ln.channel_pending` for channel `id` with `peer`, funded at `hash(100 + n)`:0 with no labels. */
export const channelPending = (
  n: number,
  id: string,
  peer: string,
  channel: { readonly capacity_sats: string; readonly fee_sats: string; readonly is_outbound: boolean },
) =>
  newEvent("ln.channel_pending", {
    channel_id: id,
    peer,
    outpoint: `${hash(100 + n)}:0`,
    labels: [],
    ...channel,
  });
