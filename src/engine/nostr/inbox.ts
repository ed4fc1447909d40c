/**
 * Reading what only the wallet may read: the relay serves gift wraps (kind 1059) to their authenticated
 * addressee only (NIP-42), so before asking for them the wallet answers each connected relay's AUTH
 * challenge with an event signed by its key. Signing happens in the handler's signer; the engine holds no key.
 */
import type { EventTemplate, VerifiedEvent } from "nostr-tools/core";
import type { Filter } from "nostr-tools/filter";
import type { NostrEvent } from "./event";
import type { RelaySet } from "./relays";

export type AuthSigner = (template: EventTemplate) => Promise<VerifiedEvent>;

/** How long one relay may take to accept the AUTH event. */
export const AUTH_MS = 8_000;

const within = <T>(p: Promise<T>, ms: number): Promise<T | null> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Answers the relay's challenge; it arrives just after the connection opens, so a moment is allowed for it. */
export const authOne = async (relay: ReturnType<RelaySet["connected"]>[number], sign: AuthSigner) => {
  for (let i = 0; i < 20; i++) {
    if ((relay as unknown as { challenge?: string }).challenge) return relay.auth(sign);
    await sleep(100);
  }
  return null;
};

/**
 * Authenticates to every connected relay that asked for it (once per connection: nostr-tools keeps the
 * answer), then queries `filter`. A relay that did not ask, or refused, simply answers without the wraps.
 */
export const authedQuery = async (
  relays: RelaySet,
  filter: Filter,
  sign: AuthSigner,
  connectMs: number,
): Promise<NostrEvent[]> => {
  await relays.whenConnected(connectMs);
  await Promise.all(relays.connected().map((relay) => within(authOne(relay, sign), AUTH_MS)));
  return relays.query(filter);
};

/** Answers `relay`'s AUTH (within `AUTH_MS`) before a live subscription asks it for gift wraps. */
export const authBefore =
  (sign: AuthSigner) =>
  (relay: ReturnType<RelaySet["connected"]>[number]): Promise<unknown> =>
    within(authOne(relay, sign), AUTH_MS);
