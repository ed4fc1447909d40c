/**
 * The safety delays the log knows: the shorter delay the owner accepted for each LSP (`ln.delay_consented`,
 * the latest per LSP), and the delay each channel was opened with (what the wallet's node asked of its
 * partner, recorded with the channel's funding). A channel opened before delays were recorded has none here.
 */
import { projection } from "./projection";

export interface DelayState {
  /** The delay (blocks) each LSP's node (pubkey) was last accepted at. */
  readonly consents: Map<string, number>;
  /** The delay (blocks) the partner of each channel must wait after closing alone, by channel id. */
  readonly channels: Map<string, number>;
}

export const delayProjection = projection<DelayState, DelayState>({
  name: "delays",
  initial: () => ({ consents: new Map(), channels: new Map() }),
  apply: (s, e) => {
    if (e.type === "ln.delay_consented") s.consents.set(e.payload.lsp, e.payload.blocks);
    else if (e.type === "ln.channel_pending" && e.payload.to_self_delay !== undefined)
      s.channels.set(e.payload.channel_id, e.payload.to_self_delay);
    return s;
  },
  view: (s) => s,
});
