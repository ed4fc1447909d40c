import type { ChannelView } from "../../projections";

/** The ways a channel can end, each with its button's words and the question asked first. */
export const CLOSE_WORDS = {
  close: { title: "channels.close", confirm: "channels.close_confirm" },
  force: { title: "channels.force_close", confirm: "channels.force_close_confirm" },
  abandon: { title: "admin.abandon", confirm: "admin.abandon_confirm" },
} as const;

export type CloseKind = keyof typeof CLOSE_WORDS;

/**
 * What the admin page offers for a channel: an open one is closed (or forced); one still opening can be
 * forced or abandoned (its funding is not confirmed yet); one whose funding never went out is only abandoned.
 */
export const adminActions = (c: Pick<ChannelView, "opening" | "never_opened">): readonly CloseKind[] =>
  c.never_opened ? ["abandon"] : c.opening ? ["force", "abandon"] : ["close", "force"];
