/**
 * Private messages with contacts, folded from the log (`chat.message`): one conversation per counterparty,
 * each kept in time order (then by id, so two devices' logs merged give the same order), and the relay
 * events already read, so a gift wrap is opened once.
 */
import type { WalletEvent } from "../events/types";
import type { NostrState } from "./nostr";
import { projection } from "./projection";

/** A message with a contact: who wrote it, to whom (the conversation), what, and when. */
export interface ChatMessage {
  /** The rumor's id (NIP-17) or the kind 4 event's id. */
  readonly id: string;
  readonly from: string;
  /** The other party of the conversation (hex pubkey). */
  readonly peer: string;
  readonly text: string;
  /** Unix seconds, as the author dated it. */
  readonly at: number;
  readonly via: "nip17" | "nip04";
}

export interface ChatState {
  /** Messages by counterparty (hex pubkey), oldest first. */
  readonly conversations: Map<string, ChatMessage[]>;
  readonly ids: Set<string>;
  /** Relay events (gift wraps, kind 4) already read. */
  readonly read: Set<string>;
  /** The relay events that carried each message, by message id (a sent one waits while they are queued). */
  readonly wrapsOf: Map<string, string[]>;
  /** The newest NIP-17 inbox relay list (kind 10050) each key published, as the log knows it. */
  readonly dmRelays: Map<string, string[]>;
  dmRelaysAt: Map<string, number>;
  /** Zaps the wallet asked for, by payment hash; `confirmed` once the service's receipt matched. */
  readonly zaps: Map<string, ZapAsked>;
  /** The newest message's time, for asking relays only for what is new. */
  newest: number;
}

export interface ZapAsked {
  readonly bolt11: string;
  readonly request: string;
  readonly service: string;
  readonly recipient: string;
  /** Derived from the request (NIP-57): an `anon` tag with the encrypted request is private, an empty one anonymous. */
  readonly privacy: "Public" | "Private" | "Anonymous";
  readonly confirmed: boolean;
}

/** A zap request's kind by its `anon` tag (spec 1 §3 zap); a request that does not parse counts as public. */
export const zapPrivacyOf = (request: string): ZapAsked["privacy"] => {
  try {
    const tags = (JSON.parse(request) as { tags?: unknown }).tags;
    const anon = Array.isArray(tags)
      ? (tags.find((t) => Array.isArray(t) && t[0] === "anon") as unknown[] | undefined)
      : undefined;
    return anon === undefined
      ? "Public"
      : typeof anon[1] === "string" && anon[1] !== ""
        ? "Private"
        : "Anonymous";
  } catch {
    return "Public";
  }
};

const before = (a: ChatMessage, b: ChatMessage) => a.at < b.at || (a.at === b.at && a.id < b.id);

export const chatProjection = projection<ChatState, ChatState>({
  name: "chat",
  initial: () => ({
    conversations: new Map(),
    ids: new Set(),
    read: new Set(),
    wrapsOf: new Map(),
    dmRelays: new Map(),
    dmRelaysAt: new Map(),
    zaps: new Map(),
    newest: 0,
  }),
  apply: (s, e: WalletEvent) => {
    if ((e.type === "nostr.queued" || e.type === "nostr.fetched") && e.payload.event.kind === 10050) {
      const ev = e.payload.event;
      if ((s.dmRelaysAt.get(ev.pubkey) ?? -1) <= ev.created_at) {
        s.dmRelaysAt.set(ev.pubkey, ev.created_at);
        s.dmRelays.set(
          ev.pubkey,
          ev.tags.flatMap((t) => (t[0] === "relay" && typeof t[1] === "string" ? [t[1]] : [])),
        );
      }
      return s;
    }
    if (e.type === "zap.requested") {
      const p = e.payload;
      if (!s.zaps.has(p.paymentHash))
        s.zaps.set(p.paymentHash, {
          bolt11: p.bolt11,
          request: p.request,
          service: p.service,
          recipient: p.recipient,
          privacy: zapPrivacyOf(p.request),
          confirmed: false,
        });
      return s;
    }
    if (e.type === "zap.confirmed") {
      const z = s.zaps.get(e.payload.paymentHash);
      if (z) s.zaps.set(e.payload.paymentHash, { ...z, confirmed: true });
      return s;
    }
    if (e.type !== "chat.message") return s;
    const p = e.payload;
    for (const w of p.wraps) s.read.add(w);
    s.wrapsOf.set(p.id, [...(s.wrapsOf.get(p.id) ?? []), ...p.wraps]);
    if (s.ids.has(p.id)) return s;
    s.ids.add(p.id);
    const m: ChatMessage = { id: p.id, from: p.from, peer: p.peer, text: p.text, at: p.at, via: p.via };
    const list = s.conversations.get(p.peer) ?? [];
    // Messages mostly arrive in order: walk back from the end to the place this one belongs.
    let i = list.length;
    while (i > 0 && before(m, list[i - 1] as ChatMessage)) i--;
    list.splice(i, 0, m);
    s.conversations.set(p.peer, list);
    s.newest = Math.max(s.newest, p.at);
    return s;
  },
  view: (s) => s,
});

/** How a message stands with the relays: waiting in the outbox, published, or refused by every relay for good. */
export type Delivery = "pending" | "sent" | "refused";

/**
 * The delivery of message `m` from the gift wraps that carried it: refused once every relay refused its wrap
 * to the peer for good (it is never sent again), pending while a wrap still waits in the outbox, else sent.
 */
export const deliveryOf = (
  chat: ChatState,
  nostr: Pick<NostrState, "outbox" | "failed">,
  m: ChatMessage,
): Delivery => {
  let waiting = false;
  for (const id of chat.wrapsOf.get(m.id) ?? []) {
    const wrap = nostr.outbox.get(id);
    if (!wrap) continue;
    if (!nostr.failed.has(id)) waiting = true;
    else if (wrap.tags.some((t) => t[0] === "p" && t[1] === m.peer)) return "refused";
  }
  return waiting ? "pending" : "sent";
};

/** An invoice found in a message (spec 2: invoice from message). */
export interface MessageInvoice {
  /** The word as written. */
  readonly original: string;
  /** The bolt11 to pay (lower case). */
  readonly invoice: string;
  readonly amount_sats: bigint | null;
  readonly paid: boolean;
  /** Sent by the counterparty and unpaid: the chat offers Pay. */
  readonly payable: boolean;
}

export type ChatEntry =
  | {
      readonly type: "activity";
      readonly id: string;
      readonly at: number;
      readonly kind: string;
      readonly amount_sats: bigint;
      readonly inbound: boolean;
      readonly pending: boolean;
    }
  | {
      readonly type: "message";
      readonly id: string;
      readonly at: number;
      readonly mine: boolean;
      readonly text: string;
      /** The text without the payment strings in it: a request's note, or the whole text when it has none. */
      readonly note: string;
      /** The owner's own message: waiting in the outbox, sent, or refused by every relay (others': sent). */
      readonly delivery: Delivery;
      readonly invoices: readonly MessageInvoice[];
    };

export interface ChatPage {
  readonly contact: {
    readonly id: string;
    readonly name: string;
    readonly npub: string | null;
    readonly ln_address: string | null;
    readonly lnurl: string | null;
    readonly image_url: string | null;
    readonly is_followed: boolean;
  };
  readonly entries: readonly ChatEntry[];
  /** Older entries remain beyond this page. */
  readonly more: boolean;
}

/** Payments that were zaps whose receipt matched their request show as zaps of their kind (spec 1 activity item). */
export const withZaps = <T extends { readonly id: string; readonly privacy_level: string }>(
  items: readonly T[],
  zaps: ReadonlyMap<string, ZapAsked>,
): T[] =>
  zaps.size === 0
    ? [...items]
    : items.map((i) => {
        const z = zaps.get(i.id);
        return z?.confirmed ? { ...i, privacy_level: z.privacy } : i;
      });
