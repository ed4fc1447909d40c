/**
 * The wallet-connect service's own relay connection (nostr-tools): it publishes each connection's info
 * event, listens for the apps' requests (kind 23194) to the connections' keys, decrypts them (NIP-44 v2,
 * or NIP-04 for older apps), hands them to the wallet and sends back its answers (kind 23195) and
 * notifications (23196/23197). It decides nothing: what to answer is the wallet's (the hooks).
 *
 * It bounds what the world can make it do (`limits.ts`): no relay message over `MAX_RELAY_MESSAGE` is read,
 * a request from a key that is not the connection's app gets no answer at all (signing a refusal for anyone
 * who asks would be work on demand), and each connection's requests pass at a bounded rate; past it they
 * are answered RATE_LIMITED, and past the refusals' own rate not at all. Each drop is counted (`dropped`).
 */
import { AbstractSimplePool, type SubCloser } from "nostr-tools/abstract-pool";
import type { Event } from "nostr-tools/core";
import * as nip04 from "nostr-tools/nip04";
import { v2 as nip44 } from "nostr-tools/nip44";
import { finalizeEvent, verifyEvent } from "nostr-tools/pure";
import type { NwcEncryption } from "../../events/types";
import type { WebSocketFactory } from "../lightning/socket";
import { type NwcKeys, nwcKeys, toHex } from "./keys";
import {
  capMessages,
  MAX_RELAY_MESSAGE,
  type NwcDropped,
  REFUSAL_BURST,
  REFUSALS_PER_SECOND,
  REQUEST_BURST,
  REQUESTS_PER_SECOND,
  TokenBucket,
} from "./limits";
import {
  connectionUri,
  encryptionOf,
  expirationOf,
  failure,
  infoEvent,
  type Nip47Response,
  type Nip47Transaction,
  NOTIFICATION_KIND_NIP04,
  NOTIFICATION_KIND_NIP44,
  type NotificationType,
  parseRequestContent,
  REQUEST_KIND,
  RESPONSE_KIND,
  tagOf,
} from "./protocol";

/** A connection the service serves: its index, and the app's own key when the app asked for it (NWA). */
export interface ServedConnection {
  readonly index: number;
  readonly appPubkey: string | null;
}

/** A request as the wallet decides on it: decrypted, its sender checked against the connection. */
export interface IncomingRequest {
  /** The request event's id. */
  readonly requestId: string;
  readonly index: number;
  /** The app's public key (the request's author). */
  readonly app: string;
  readonly encryption: NwcEncryption;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** Unix seconds. */
  readonly createdAt: number;
  readonly expiresAt: number | null;
  /**
   * It waited on the relay: the relay held it before the service listened (sent while the wallet was
   * closed), rather than passing it on as it came.
   */
  readonly waited?: boolean;
}

/** One response to send; `d` names the part of a multi-payment it answers. */
export interface Reply {
  readonly response: Nip47Response;
  readonly d?: string;
}

/** Where a reply goes: the connection, the app and the request it answers, encrypted as it was. */
export interface ReplyTarget {
  readonly index: number;
  readonly app: string;
  readonly requestId: string;
  readonly encryption: NwcEncryption;
}

export interface NwcHooks {
  /** The enabled connections now. */
  readonly connections: () => readonly ServedConnection[];
  /** From when (unix seconds) to ask the relay for requests: those that waited while the wallet was off. */
  readonly since: () => number;
  /** Decides a request; resolves with the replies to send now (none while the owner is asked). */
  readonly request: (r: IncomingRequest) => Promise<readonly Reply[]>;
  /** The clock the connections' rates are counted on (ms); the system clock unless a test fixes it. */
  readonly now?: () => number;
}

export interface NwcPort {
  /** The relay the service uses. */
  readonly relay: string;
  /** The connection URI an app is given for `index`. */
  readonly uri: (index: number) => string;
  readonly servicePubkey: (index: number) => string;
  /** The key of the app the URI of `index` gives (apps that asked for a connection bring their own). */
  readonly clientPubkey: (index: number) => string;
  /** The connections changed: listens to the new set and publishes their info events. */
  readonly refresh: () => Promise<void>;
  /** Resolves once the relay listens for the connections of the latest refresh (or gave up trying). */
  readonly ready: () => Promise<void>;
  /** Sends replies later (a held payment the owner approved or denied). */
  readonly reply: (to: ReplyTarget, replies: readonly Reply[]) => Promise<void>;
  readonly notify: (
    index: number,
    app: string,
    type: NotificationType,
    transaction: Nip47Transaction,
  ) => Promise<void>;
  /** What the service dropped unread or unanswered since it started (a trace of floods and strangers). */
  readonly dropped: () => Readonly<NwcDropped>;
  readonly stop: () => Promise<void>;
}

/**
 * nostr-tools opens sockets with `new`: the platform's factory, with the constants it reads, reading no
 * message over `MAX_RELAY_MESSAGE`.
 */
const socketClass = (make: WebSocketFactory, oversized: () => void): typeof WebSocket =>
  Object.assign(
    function Socket(url: string) {
      return capMessages(make(url), MAX_RELAY_MESSAGE, oversized);
    },
    { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 },
  ) as unknown as typeof WebSocket;

/**
 * NIP-44 conversation keys (one elliptic-curve multiplication each), kept per connection key and app: a
 * request's decrypt, its answer and the notifications after it use the same one. Only a connection's own
 * app reaches these (strangers are dropped unread), so there are as many as connections.
 */
const conversations = (): ((keys: NwcKeys, peer: string) => Uint8Array) => {
  const known = new Map<string, Uint8Array>();
  return (keys, peer) => {
    const id = `${keys.servicePubkey}:${peer}`;
    let key = known.get(id);
    if (!key) {
      key = nip44.utils.getConversationKey(keys.serviceSecret, peer);
      known.set(id, key);
    }
    return key;
  };
};
type Conversation = ReturnType<typeof conversations>;

const encrypt = (
  conversation: Conversation,
  keys: NwcKeys,
  to: string,
  text: string,
  encryption: NwcEncryption,
): string =>
  encryption === "nip44_v2"
    ? nip44.encrypt(text, conversation(keys, to))
    : nip04.encrypt(keys.serviceSecret, to, text);

const decrypt = (
  conversation: Conversation,
  keys: NwcKeys,
  from: string,
  text: string,
  encryption: NwcEncryption,
): string | null => {
  // A request larger than any NIP-47 request needs is not read.
  if (text.length > 200_000) return null;
  try {
    return encryption === "nip44_v2"
      ? nip44.decrypt(text, conversation(keys, from))
      : nip04.decrypt(keys.serviceSecret, from, text);
  } catch {
    return null;
  }
};

export const startNwcService = async (
  relay: string,
  mnemonic: string,
  makeSocket: WebSocketFactory,
  hooks: NwcHooks,
): Promise<NwcPort> => {
  const dropped: NwcDropped = { oversized: 0, strangers: 0, limited: 0 };
  const pool = new AbstractSimplePool({
    verifyEvent,
    websocketImplementation: socketClass(makeSocket, () => {
      dropped.oversized++;
    }),
    enableReconnect: true,
    maxWaitForConnection: 10_000,
  });
  const keyCache = new Map<number, NwcKeys>();
  const conversation = conversations();
  const keysOf = (index: number): NwcKeys => {
    let k = keyCache.get(index);
    if (!k) {
      k = nwcKeys(mnemonic, index);
      keyCache.set(index, k);
    }
    return k;
  };
  /** Served connections by the service key an app writes to. */
  let served = new Map<string, ServedConnection>();
  let sub: SubCloser | null = null;
  let stopped = false;

  const publish = async (event: Event): Promise<void> => {
    await Promise.any(pool.publish([relay], event, { maxWait: 10_000 }));
  };

  const sendReplies = async (to: ReplyTarget, replies: readonly Reply[]): Promise<void> => {
    const keys = keysOf(to.index);
    for (const r of replies) {
      const event = finalizeEvent(
        {
          kind: RESPONSE_KIND,
          created_at: Math.floor(Date.now() / 1000),
          tags: [["p", to.app], ["e", to.requestId], ...(r.d !== undefined ? [["d", r.d]] : [])],
          content: encrypt(conversation, keys, to.app, JSON.stringify(r.response), to.encryption),
        },
        keys.serviceSecret,
      );
      await publish(event);
    }
  };

  const clock = hooks.now ?? (() => Date.now());
  /** Each connection's rate: requests that pass, and RATE_LIMITED answers past them. */
  const rates = new Map<number, { requests: TokenBucket; refusals: TokenBucket }>();
  const rateOf = (index: number) => {
    let r = rates.get(index);
    if (!r) {
      const now = clock();
      r = {
        requests: new TokenBucket(REQUEST_BURST, REQUESTS_PER_SECOND, now),
        refusals: new TokenBucket(REFUSAL_BURST, REFUSALS_PER_SECOND, now),
      };
      rates.set(index, r);
    }
    return r;
  };

  const onRequest = async (event: Event, waited: boolean): Promise<void> => {
    const service = tagOf(event.tags, "p");
    const conn = service ? served.get(service) : undefined;
    if (!conn || stopped) return;
    const keys = keysOf(conn.index);
    // Only the connection's app may use it; anyone else gets no answer at all (NIP-47 lets a service
    // ignore them), so a stranger cannot make the wallet sign and send on demand.
    if (event.pubkey !== (conn.appPubkey ?? keys.clientPubkey)) {
      dropped.strangers++;
      return;
    }
    const encryption = encryptionOf(event.tags);
    const target: ReplyTarget = { index: conn.index, app: event.pubkey, requestId: event.id, encryption };
    const rate = rateOf(conn.index);
    const now = clock();
    if (!rate.requests.take(now)) {
      dropped.limited++;
      if (!rate.refusals.take(now)) return;
      const method = parseRequestContent(
        decrypt(conversation, keys, event.pubkey, event.content, encryption) ?? "",
      )?.method;
      await sendReplies(target, [
        { response: failure(method ?? "", "RATE_LIMITED", "Too many requests: wait a moment.") },
      ]).catch(() => undefined);
      return;
    }
    const text = decrypt(conversation, keys, event.pubkey, event.content, encryption);
    const content = text === null ? null : parseRequestContent(text);
    if (!content) return;
    const replies = await hooks.request({
      requestId: event.id,
      index: conn.index,
      app: event.pubkey,
      encryption,
      method: content.method,
      params: content.params,
      createdAt: event.created_at,
      expiresAt: expirationOf(event.tags),
      waited,
    });
    if (replies.length > 0 && !stopped) await sendReplies(target, replies);
  };

  const listen = async (): Promise<void> => {
    if (stopped) return;
    const next = new Map<string, ServedConnection>();
    for (const c of hooks.connections()) next.set(keysOf(c.index).servicePubkey, c);
    const fresh = [...next.entries()].filter(([pk]) => !served.has(pk));
    served = next;
    sub?.close();
    sub = null;
    if (next.size > 0) {
      // Requests are ephemeral on most relays: one sent before the subscription is in place is lost, so a
      // refresh ends only once the relay said it listens (end of stored events), or after a few seconds.
      let listening: () => void = () => undefined;
      const live = new Promise<void>((resolve) => {
        listening = resolve;
      });
      // Until the relay's end of stored events, what comes waited on the relay: it was sent while no
      // service listened (the wallet was closed).
      let stored = true;
      sub = pool.subscribe(
        [relay],
        { kinds: [REQUEST_KIND], "#p": [...next.keys()], since: hooks.since() },
        {
          onevent: (event) => {
            void onRequest(event, stored).catch(() => undefined);
          },
          oneose: () => {
            stored = false;
            listening();
          },
          onclose: () => listening(),
        },
      );
      await Promise.race([live, new Promise((r) => setTimeout(r, 5_000))]);
    }
    // Info events are replaceable: publishing one for each new connection tells its app what it may ask.
    await Promise.all(
      fresh.map(([, c]) => {
        const keys = keysOf(c.index);
        const info = infoEvent(c.appPubkey);
        return publish(
          finalizeEvent({ ...info, created_at: Math.floor(Date.now() / 1000) }, keys.serviceSecret),
        ).catch(() => undefined);
      }),
    );
  };

  let current: Promise<void> = listen();
  const refresh = (): Promise<void> => {
    current = listen();
    return current;
  };
  await current;

  return {
    relay,
    uri: (index) => connectionUri(keysOf(index).servicePubkey, relay, toHex(keysOf(index).clientSecret)),
    servicePubkey: (index) => keysOf(index).servicePubkey,
    clientPubkey: (index) => keysOf(index).clientPubkey,
    refresh,
    ready: () => current,
    reply: sendReplies,
    notify: async (index, app, type, transaction) => {
      const keys = keysOf(index);
      const text = JSON.stringify({ notification_type: type, notification: transaction });
      // Apps listen on the kind of the encryption they use: send both.
      for (const [kind, encryption] of [
        [NOTIFICATION_KIND_NIP44, "nip44_v2"],
        [NOTIFICATION_KIND_NIP04, "nip04"],
      ] as const) {
        await publish(
          finalizeEvent(
            {
              kind,
              created_at: Math.floor(Date.now() / 1000),
              tags: [["p", app]],
              content: encrypt(conversation, keys, app, text, encryption),
            },
            keys.serviceSecret,
          ),
        ).catch(() => undefined);
      }
    },
    dropped: () => ({ ...dropped }),
    stop: async () => {
      stopped = true;
      sub?.close();
      pool.destroy();
    },
  };
};
