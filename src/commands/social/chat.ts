/**
 * Chat with a contact (spec 2 chat and request): private messages sent as NIP-17 gift wraps (queued in the
 * log, so the outbox sends them once a relay is reachable and nothing typed is lost), messages read from
 * the relays (NIP-17 after NIP-42 AUTH, and legacy NIP-04) and recorded once each, and the chat's one
 * timeline of payments and messages with the invoices found in messages.
 */
import { Effect } from "effect";
import type { ContactRecord } from "../../crdt/doc";
import {
  authSigner,
  type DirectMessage,
  DM_RELAYS,
  dmRelayList,
  dmRelaysOf,
  GIFT_WRAP,
  LEGACY_DM,
  MAX_MESSAGE_CHARS,
  openLegacy,
  openWrap,
  wrapMessage,
} from "../../engine/nostr/dm";
import { checkEvent, type NostrEvent } from "../../engine/nostr/event";
import { InvalidInput, ServerUnavailable } from "../../errors";
import { type NewEvent, newEvent } from "../../events/make";
import { MAX_TARGET_RELAYS } from "../../events/validate";
import { activityItems } from "../../projections/activity";
import { type ChatEntry, type ChatMessage, deliveryOf } from "../../projections/chat";
import { withContacts } from "../../projections/contacts";
import { crdtProjection } from "../../projections/crdt";
import { labelsOf } from "../../projections/settings";
import { lastPage, mergeTimeline, oldestFirst } from "../../projections/timeline";
import type { CommandTag } from "../command";
import { npubToHex } from "../nostr";
import { invoicePaid, invoicesIn, noteBeside } from "./chat-invoices";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { type Key, keyInUse, MESSAGES_WATCH, queued } from "../nostr";

/** A page of the chat (get_dm_conversation's limit). */
export const CHAT_PAGE = 20;
/** NIP-59 dates gift wraps up to two days back: asking for new ones reaches back this far. */
const WRAP_BACKDATE_S = 3 * 24 * 3600;

export { INVOICE_WORD_MIN, invoicePaid, invoicesIn, noteBeside } from "./chat-invoices";

const notFound = () => new InvalidInput({ message: "Contact not found", key: "contacts.error_not_found" });
const noNpub = () =>
  new InvalidInput({ message: "Contact doesn't have a npub", key: "contacts.error_no_npub" });

const contactOf = (ctx: HandlerContext, id: string): ContactRecord | null => {
  const c = crdtProjection.view(ctx.states.crdt).contacts?.[id];
  return c && !c.deleted ? c : null;
};

/** The contact and its hex public key; 'Contact doesn't have a npub' when it has none. */
const peerOf = (ctx: HandlerContext, id: string) =>
  Effect.gen(function* () {
    const contact = contactOf(ctx, id);
    if (!contact) return yield* Effect.fail(notFound());
    const peer = contact.npub ? npubToHex(contact.npub) : null;
    if (!peer) return yield* Effect.fail(noNpub());
    return { contact, peer };
  });

const nowSeconds = (ctx: HandlerContext) => Math.floor(ctx.stamp.now() / 1000);

/** The relays of a NIP-17 inbox list the outbox may send to (ws or wss URLs, at most `MAX_TARGET_RELAYS`). */
const inboxRelays = (urls: readonly string[]): string[] =>
  [
    ...new Set(
      urls.flatMap((r) => {
        try {
          const u = new URL(r);
          return (u.protocol === "ws:" || u.protocol === "wss:") && u.href.length <= 2_000 ? [u.href] : [];
        } catch {
          return [];
        }
      }),
    ),
  ].slice(0, MAX_TARGET_RELAYS);

/**
 * The contact's NIP-17 inbox relays (kind 10050): asked of the relays when one is connected (the newest list
 * is recorded), else as the log knows them. Empty when the contact published none: the message then goes to
 * the wallet's own relays.
 */
const peerInbox = (ctx: HandlerContext, peer: string) =>
  Effect.gen(function* () {
    const port = ctx.nostr?.status().some((r) => r.connected) ? ctx.nostr : null;
    const found = port
      ? yield* ctx.outside(
          Effect.promise(() =>
            port.query({ kinds: [DM_RELAYS], authors: [peer] }).catch(() => [] as NostrEvent[]),
          ),
        )
      : [];
    const newest = found
      .filter((e) => e.pubkey === peer && e.kind === DM_RELAYS)
      .sort((a, b) => b.created_at - a.created_at)[0];
    const fresh = newest && (ctx.states.chat.dmRelaysAt.get(peer) ?? -1) < newest.created_at ? newest : null;
    const relays = inboxRelays(fresh ? dmRelaysOf(fresh) : (ctx.states.chat.dmRelays.get(peer) ?? []));
    return { relays, events: fresh ? [newEvent("nostr.fetched", { event: fresh })] : [] };
  });

const relays = (ctx: HandlerContext): readonly string[] => ctx.config?.nostr?.relays ?? [];

/** The wallet's NIP-17 inbox list (kind 10050), published once and again when the relays change. */
const dmRelayEvents = (ctx: HandlerContext, key: Key): NewEvent[] => {
  const urls = relays(ctx);
  if (urls.length === 0) return [];
  const current = ctx.states.chat.dmRelays.get(key.pubkey);
  if (current !== undefined && current.join(" ") === urls.join(" ")) return [];
  return [queued(dmRelayList(key.secret, urls, nowSeconds(ctx)))];
};

const messageEvent = (m: DirectMessage, wraps: string[]): NewEvent =>
  newEvent("chat.message", {
    id: m.id,
    from: m.from,
    peer: m.peer,
    text: m.text,
    at: m.at,
    via: m.via,
    wraps,
  });

/** send_dm: the message goes out as NIP-17 gift wraps through the outbox (queued now, sent when it can). */
export const sendMessage: Handler<"SendMessage"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const text = cmd.text.trim();
    if (text === "" || text.length > MAX_MESSAGE_CHARS)
      return yield* Effect.fail(
        new InvalidInput({
          message: "Write a message of at most 10,000 characters.",
          key: "chat.error_message",
        }),
      );
    const { peer } = yield* peerOf(ctx, cmd.contactId);
    const key = yield* keyInUse(ctx);
    const inbox = yield* peerInbox(ctx, peer);
    const { message, toPeer, toSelf } = wrapMessage(
      key.secret,
      key.pubkey,
      peer,
      text,
      nowSeconds(ctx),
      relays(ctx)[0],
    );
    return outcome({ id: message.id }, [
      ...dmRelayEvents(ctx, key),
      ...inbox.events,
      // To the contact's inbox relays when it published them, else the wallet's; the copy to itself, the wallet's.
      queued(toPeer, inbox.relays),
      queued(toSelf),
      messageEvent(message, [toPeer.id, toSelf.id]),
    ]);
  });

/** The nostr port, or the catalogue's error while the relays are not running. */
const relaysRunning = (ctx: HandlerContext) =>
  ctx.nostr
    ? Effect.succeed(ctx.nostr)
    : Effect.fail(
        new ServerUnavailable({ message: "The nostr relays are not running.", key: "chat.error_relays" }),
      );

/**
 * Reads new private messages from the relays (the chat's refresh): gift wraps addressed to the wallet
 * (after AUTH) and kind 4 messages to or from it. Each relay event is opened once; what opens is recorded.
 */
export const syncMessages: Handler<"SyncMessages"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    const port = yield* relaysRunning(ctx);
    const since = Math.max(0, ctx.states.chat.newest - WRAP_BACKDATE_S);
    const sign = authSigner(key.secret);
    const found = yield* ctx.outside(
      Effect.promise(async () => {
        const none = () => [] as NostrEvent[];
        const [wraps, toMe, fromMe] = await Promise.all([
          port.authedQuery({ kinds: [GIFT_WRAP], "#p": [key.pubkey], since }, sign).catch(none),
          port.query({ kinds: [LEGACY_DM], "#p": [key.pubkey], since }).catch(none),
          port.query({ kinds: [LEGACY_DM], authors: [key.pubkey], since }).catch(none),
        ]);
        return [...wraps, ...toMe, ...fromMe];
      }),
    );
    // States are as they are after the wait: another sync may have read some of these meanwhile.
    const { events, waiting } = opened(ctx, key, found);
    return outcome({ received: events.length, waiting }, [...dmRelayEvents(ctx, key), ...events]);
  });

/** The most relay events one command opens: each costs two decryptions and signature checks in the queue. */
export const MAX_ARRIVALS = 500;

/**
 * The messages among `found` not read before: each relay event opened once (gift wrap or NIP-04) with the
 * wallet's key, each message recorded once whichever relay or path brought it. At most `MAX_ARRIVALS` are
 * opened; `waiting` counts those left unread, which stay on the relays for the next read (never dropped).
 */
const opened = (
  ctx: HandlerContext,
  key: Key,
  found: readonly NostrEvent[],
): { events: NewEvent[]; waiting: number } => {
  const { read, ids } = ctx.states.chat;
  // The lightning-address service's messages carry ecash tokens: redeemed (RedeemAddressTokens), never kept
  // as chat, so no spendable token lies in the log.
  const service = ctx.states.lnaddress.reservation?.service;
  const events: NewEvent[] = [];
  const tried = new Set<string>();
  const recorded = new Set<string>();
  let waiting = 0;
  // Oldest first, so what waits for the next read is the newest, and a backlog is read in order.
  const unread = found.filter((e) => !read.has(e.id)).sort((a, b) => a.created_at - b.created_at);
  for (const e of unread) {
    if (tried.has(e.id)) continue;
    if (tried.size >= MAX_ARRIVALS) {
      waiting++;
      continue;
    }
    tried.add(e.id);
    const m =
      e.kind === GIFT_WRAP ? openWrap(e, key.secret, key.pubkey) : openLegacy(e, key.secret, key.pubkey);
    if (!m || ids.has(m.id) || recorded.has(m.id) || (service !== undefined && m.from === service)) continue;
    recorded.add(m.id);
    events.push(messageEvent(m, [e.id]));
  }
  return { events, waiting };
};

/**
 * Keeps a subscription open on the relays for the wallet's new private messages (gift wraps after AUTH, and
 * NIP-04 messages to it): what arrives is recorded at once (ReceiveMessages), the chat's 5 s refresh stays
 * as the fallback.
 */
export const watchMessages: Handler<"WatchMessages"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    const port = yield* relaysRunning(ctx);
    const since = Math.max(0, Math.min(ctx.states.chat.newest, nowSeconds(ctx)) - WRAP_BACKDATE_S);
    port.watch(
      MESSAGES_WATCH,
      [
        { kinds: [GIFT_WRAP], "#p": [key.pubkey], since },
        { kinds: [LEGACY_DM], "#p": [key.pubkey], since },
      ],
      authSigner(key.secret),
    );
    return outcome(null);
  });

/** The most relay events one ReceiveMessages looks at (already read ones are skipped cheaply). */
const MAX_RECEIVED = 20_000;

/** Records the private messages the live subscription brought; each event is checked again here. */
export const receiveMessages: Handler<"ReceiveMessages"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    // Each is checked again; a burst past what one command opens waits on the relays for the next sync.
    const found = cmd.events.slice(0, MAX_RECEIVED).flatMap((e) => {
      const checked = checkEvent(e);
      return checked && (checked.kind === GIFT_WRAP || checked.kind === LEGACY_DM) ? [checked] : [];
    });
    const { events, waiting } = opened(ctx, key, found);
    return outcome(
      { received: events.length, waiting: waiting + Math.max(0, cmd.events.length - MAX_RECEIVED) },
      events,
    );
  });

/** The chat with a contact (get_dm_conversation + get_label_activity): the newest `limit` entries. */
export const getChat: Handler<"GetChat"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const contact = contactOf(ctx, cmd.contactId);
    if (!contact) return yield* Effect.fail(notFound());
    const peer = contact.npub ? npubToHex(contact.npub) : null;
    const me = peer ? (yield* keyInUse(ctx)).pubkey : null;
    const doc = crdtProjection.view(ctx.states.crdt);
    const items = withContacts(
      activityItems(ctx.states.onchain, labelsOf(doc), ctx.states.lightning),
      doc.contacts ?? {},
    )
      .filter((i) => i.contacts.includes(contact.id))
      .map((i) => ({ ...i, at: i.last_updated || i.seen_at }));
    const messages: readonly ChatMessage[] = peer ? (ctx.states.chat.conversations.get(peer) ?? []) : [];
    const timeline = mergeTimeline(oldestFirst(items), messages);
    const limit = Math.max(1, Math.min(cmd.limit ?? CHAT_PAGE, 10_000));
    const page = lastPage(timeline, limit);
    const entries: ChatEntry[] = page.items.map((t) => {
      if (t.type === "activity")
        return {
          type: "activity",
          id: t.item.id,
          at: t.at,
          kind: t.item.kind,
          amount_sats: t.item.amount_sats,
          inbound: t.item.inbound,
          pending: t.item.last_updated === 0,
        };
      const m = t.item;
      const mine = m.from === me;
      const found = invoicesIn(m.text, ctx.network);
      return {
        type: "message",
        id: m.id,
        at: m.at,
        mine,
        text: m.text,
        note: found.length === 0 ? m.text : noteBeside(m.text, found),
        delivery: mine ? deliveryOf(ctx.states.chat, ctx.states.nostr, m) : "sent",
        invoices: found.map((inv) => {
          const paid = invoicePaid(ctx.states.lightning, inv.paymentHash);
          return {
            original: inv.original,
            invoice: inv.invoice,
            amount_sats: inv.amount_sats,
            paid,
            payable: !mine && !paid,
          };
        }),
      };
    });
    return outcome({
      contact: {
        id: contact.id,
        name: contact.name,
        npub: contact.npub,
        ln_address: contact.ln_address,
        lnurl: contact.lnurl,
        image_url: contact.image_url,
        is_followed: contact.is_followed,
      },
      entries,
      more: page.more,
    });
  });

type ChatTag = "SendMessage" | "SyncMessages" | "WatchMessages" | "ReceiveMessages" | "GetChat";

export const chatHandlers = {
  SendMessage: sendMessage,
  SyncMessages: syncMessages,
  WatchMessages: watchMessages,
  ReceiveMessages: receiveMessages,
  GetChat: getChat,
} satisfies { readonly [K in ChatTag]: Handler<K> } & { readonly [K in CommandTag]?: Handler<K> };

/** Sending and reading the log need only the seed; reading relays needs the nostr engine (started on demand). */
export const chatNeeds: Needs = {
  SendMessage: "seed",
  SyncMessages: "nostr",
  WatchMessages: "nostr",
  ReceiveMessages: "seed",
  GetChat: "seed",
};
