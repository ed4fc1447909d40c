/**
 * The friends tab (spec 1 home): zaps among the people the owner follows (its followed contacts and its
 * own follow list), from the cache service's `zaps_feed`, a page of at most 100, older pages by `until`.
 */
import { Effect } from "effect";
import { fetchZaps, ZapsFailed } from "../engine/nostr/zaps";
import { ServerUnavailable, unexpected } from "../errors";
import { crdtProjection } from "../projections/crdt";
import { ownFollowsEvent } from "../projections/nostr";
import type { FriendZap } from "../projections/zaps";
import type { CommandTag } from "./command";
import { npubToHex } from "./contact-form";
import type { Handler, HandlerContext } from "./context";
import { outcome } from "./context";

/** The hex keys the owner follows: followed contacts, and the wallet's own published follow list. */
export const followedKeys = (ctx: HandlerContext): string[] => {
  const keys = new Set<string>();
  for (const c of Object.values(crdtProjection.view(ctx.states.crdt).contacts ?? {})) {
    const hex = !c.deleted && c.is_followed && c.npub ? npubToHex(c.npub) : null;
    if (hex) keys.add(hex);
  }
  for (const t of ownFollowsEvent(ctx.states.nostr)?.tags ?? [])
    if (t[0] === "p" && t[1] && /^[0-9a-f]{64}$/.test(t[1])) keys.add(t[1]);
  return [...keys].slice(0, 5_000);
};

export const getFriendZaps: Handler<"GetFriendZaps"> = (cmd, ctx) => {
  const keys = followedKeys(ctx);
  const contactName = new Map<string, string>();
  for (const c of Object.values(crdtProjection.view(ctx.states.crdt).contacts ?? {})) {
    const hex = !c.deleted && c.npub ? npubToHex(c.npub) : null;
    if (hex) contactName.set(hex, c.name);
  }
  return Effect.map(
    ctx.outside(
      Effect.tryPromise({
        try: () =>
          fetchZaps(
            (i, init) => fetch(i, init),
            ctx.config?.nostr?.primal ?? "",
            keys,
            cmd.until ?? undefined,
          ),
        catch: (e) =>
          e instanceof ZapsFailed
            ? new ServerUnavailable({
                message: e.message,
                key: e.notArray ? "zaps.error_not_array" : "zaps.error_load",
              })
            : unexpected(e),
      }),
    ),
    (page) =>
      outcome({
        zaps: page.zaps.map(
          (z): FriendZap => ({
            ...z,
            from_name: z.from_hexpub
              ? (contactName.get(z.from_hexpub) ?? page.names.get(z.from_hexpub) ?? null)
              : null,
            to_name: contactName.get(z.to_hexpub) ?? page.names.get(z.to_hexpub) ?? null,
          }),
        ),
        until: page.until,
      }),
  );
};

export const zapsHandlers = {
  GetFriendZaps: getFriendZaps,
} satisfies { readonly [K in CommandTag]?: Handler<K> };
