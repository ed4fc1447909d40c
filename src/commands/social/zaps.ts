/**
 * The friends tab (spec 1 home): zaps among the people the owner follows (its followed contacts and its
 * own follow list), from the cache service's `zaps_feed`, a page of at most 100, older pages by `until`.
 */
import { Effect } from "effect";
import { globalFetch } from "../../engine/http/bounded";
import { npubEncode } from "nostr-tools/nip19";
import { fetchZaps, type PrivateZapOpener, ZAPS_LIMITS, ZapsFailed } from "../../engine/nostr/zaps";
import { openPrivateZap } from "../../engine/nostr/zap-request";
import { ZapSigners } from "../../engine/nostr/zap-signers";
import { ServerUnavailable, unexpected } from "../../errors";
import { crdtProjection } from "../../projections/crdt";
import { ownFollowsEvent } from "../../projections/nostr";
import { keyInUse } from "../nostr";
import type { FriendZap } from "../../projections/zaps";
import type { ZapAsked } from "../../projections/chat";
import type { NostrEvent } from "../../engine/nostr/event";
import { newEvent } from "../../events/make";
import type { CommandTag } from "../command";
import { npubToHex } from "../nostr";
import type { Handler, HandlerContext } from "../context";
import { type Needs, outcome } from "../context";

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

/** The key each person's pay server signs zap receipts with, read once per person for a while (NIP-57 F). */
const zapSigners = new ZapSigners(globalFetch);

/** Opens the private zaps addressed to the owner's key with that key; others' private zaps stay closed. */
export const ownerOpener =
  (key: { readonly secret: Uint8Array; readonly pubkey: string }): PrivateZapOpener =>
  (request) =>
    request.tags.find((t) => t[0] === "p")?.[1] === key.pubkey ? openPrivateZap(request, key.secret) : null;

export const getFriendZaps: Handler<"GetFriendZaps"> = (cmd, ctx) =>
  Effect.flatMap(
    Effect.orElseSucceed(keyInUse(ctx), () => null),
    (key) => friendZaps(cmd, ctx, key),
  );

const friendZaps = (
  cmd: Parameters<Handler<"GetFriendZaps">>[0],
  ctx: HandlerContext,
  key: { readonly secret: Uint8Array; readonly pubkey: string } | null,
) => {
  const keys = followedKeys(ctx);
  const saved = new Map<string, { id: string; name: string }>();
  for (const c of Object.values(crdtProjection.view(ctx.states.crdt).contacts ?? {})) {
    const hex = !c.deleted && c.npub ? npubToHex(c.npub) : null;
    if (hex) saved.set(hex, { id: c.id, name: c.name });
  }
  return Effect.map(
    ctx.outside(
      Effect.tryPromise({
        try: () =>
          fetchZaps(
            globalFetch,
            ctx.config?.nostr?.primal ?? "",
            keys,
            cmd.until ?? undefined,
            ZAPS_LIMITS,
            key ? ownerOpener(key) : undefined,
            zapSigners,
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
    (page) => {
      const nameOf = (hex: string | null) =>
        hex ? (saved.get(hex)?.name ?? page.names.get(hex) ?? null) : null;
      return outcome({
        zaps: page.zaps.map((z): FriendZap => {
          const person = z.from_hexpub ?? z.to_hexpub;
          return {
            ...z,
            from_name: nameOf(z.from_hexpub),
            to_name: nameOf(z.to_hexpub),
            chat: {
              npub: npubEncode(person),
              name: nameOf(person),
              contact_id: saved.get(person)?.id ?? null,
            },
          };
        }),
        until: page.until,
      });
    },
  );
};

/** The receipt `e` is the one the service owes for zap `z`: its key, the same invoice and the same request. */
export const receiptMatches = (e: NostrEvent, z: ZapAsked): boolean => {
  const tag = (n: string) => e.tags.find((t) => t[0] === n)?.[1];
  return (
    e.kind === 9735 &&
    e.pubkey === z.service &&
    tag("p") === z.recipient &&
    tag("bolt11")?.toLowerCase() === z.bolt11.toLowerCase() &&
    tag("description") === z.request
  );
};

/**
 * Reads the receipts of the zaps still unconfirmed from the relays (each checked by the relay client: shape,
 * id, signature) and records those that match their request: only then does the payment show as zapped.
 */
export const checkZaps: Handler<"CheckZaps"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const waiting = [...ctx.states.chat.zaps.entries()].filter(([, z]) => !z.confirmed).slice(-20);
    const port = ctx.nostr;
    if (waiting.length === 0 || !port) return outcome({ confirmed: 0 });
    const found = yield* ctx.outside(
      Effect.promise(() =>
        port
          .query({ kinds: [9735], "#p": [...new Set(waiting.map(([, z]) => z.recipient))] })
          .catch(() => [] as NostrEvent[]),
      ),
    );
    const events = waiting.flatMap(([paymentHash, z]) => {
      if (ctx.states.chat.zaps.get(paymentHash)?.confirmed) return [];
      const receipt = found.find((e) => receiptMatches(e, z));
      return receipt ? [newEvent("zap.confirmed", { paymentHash, receipt: receipt.id })] : [];
    });
    return outcome({ confirmed: events.length }, events);
  });

export const zapsHandlers = {
  GetFriendZaps: getFriendZaps,
  CheckZaps: checkZaps,
} satisfies { readonly [K in CommandTag]?: Handler<K> };

export const zapsNeeds: Needs = { CheckZaps: "nostr" };
