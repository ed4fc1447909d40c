/**
 * The nostr engine's running part: the relay connections and the outbox. It holds no secret key: handlers
 * sign, queue the signed events in the log, and ask this to send them.
 */
import type { Filter } from "nostr-tools/filter";
import type { FetchFn } from "../http/bounded";
import type { SocketClass } from "../http/socket";
import { type uploadAuth, uploadPicture } from "./blossom";
import { fetchCachedProfile, MissingCache } from "./cache";
import { type AuthSigner, authBefore, authedQuery } from "./inbox";
import type { NostrEvent } from "./event";
import { Outbox, type OutboxHooks } from "./outbox";
import { RELAY_TIMINGS, type RelayStatus, RelaySet, type RelayTimings } from "./relays";

export interface NostrPort {
  /** Sends what waits in the outbox now (an event was just queued). */
  readonly flush: () => void;
  /** Events matching `filter` on the relays, checked; waits for a first connection at most a connect deadline. */
  readonly query: (filter: Filter) => Promise<NostrEvent[]>;
  /** Like `query`, after answering the relays' NIP-42 AUTH with `sign` (gift wraps are served only then). */
  readonly authedQuery: (filter: Filter, sign: AuthSigner) => Promise<NostrEvent[]>;
  readonly status: () => readonly RelayStatus[];
  /**
   * Keeps a subscription to `filters` open on the relays (after their AUTH, with `sign`), through
   * reconnections, under `name`; the events it brings go to the `arrived` hook. Answers the way to close it.
   */
  readonly watch: (name: string, filters: readonly Filter[], sign: AuthSigner) => () => void;
  /** The newest profile of `pubkey` the social-profile cache service has; throws `MissingCache` when none is set. */
  readonly cachedProfile: (pubkey: string) => Promise<NostrEvent | null>;
  /** Uploads a picture to the media server with its signed authorization; answers its URL. */
  readonly upload: (
    bytes: Uint8Array,
    type: string,
    auth: Awaited<ReturnType<typeof uploadAuth>>,
  ) => Promise<string>;
  readonly stop: () => void;
}

/** Where the engine reads and uploads besides the relays. */
export interface NostrHttp {
  readonly fetch: FetchFn;
  /** The cache service's base (`primal_api`); empty when none is set. */
  readonly primal: string;
  readonly blossom: string;
}

export interface NostrHooks extends OutboxHooks {
  /** The relays' connection states, whenever one changes. */
  readonly onStatus?: (status: readonly RelayStatus[]) => void;
  /** Events a watch brought (checked: shape, size, id, signature), under the watch's name. */
  readonly arrived?: (name: string, event: NostrEvent) => void;
}

export const makeNostrPort = (
  urls: readonly string[],
  socket: SocketClass,
  hooks: NostrHooks,
  http: NostrHttp,
  timings: RelayTimings = RELAY_TIMINGS,
  retryMs?: number,
): NostrPort => {
  let outbox: Outbox | null = null;
  const relays = new RelaySet(urls, socket, () => outbox?.flush(), hooks.onStatus, timings);
  outbox = new Outbox(relays, hooks, retryMs);
  relays.start();
  return {
    flush: () => outbox?.flush(),
    query: async (filter) => {
      await relays.whenConnected(timings.connectMs);
      return relays.query(filter);
    },
    authedQuery: (filter, sign) => authedQuery(relays, filter, sign, timings.connectMs),
    status: () => relays.status(),
    watch: (name, filters, sign) =>
      relays.watch(name, {
        filters,
        prepare: authBefore(sign),
        onEvent: (e) => hooks.arrived?.(name, e),
      }),
    cachedProfile: (pubkey) => {
      if (http.primal === "")
        return Promise.reject(new MissingCache("Missing PRIMAL_API environment variable"));
      return fetchCachedProfile(http.fetch, http.primal, pubkey);
    },
    upload: (bytes, type, auth) => uploadPicture(http.fetch, http.blossom, bytes, type, auth),
    stop: () => {
      outbox?.stop();
      relays.stop();
    },
  };
};
