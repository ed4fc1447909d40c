/**
 * The owner's nostr identity (spec 2: nostr keys): the key in use (the seed's by NIP-06, or an imported nsec
 * sealed like the seed), and how what it publishes is signed and queued; the profile and the follow list are
 * in `profile.ts`. Handlers sign here, in the worker; what they publish is queued in the log (`nostr.queued`) and the engine's
 * outbox sends it until a relay accepts it, so an edit made offline goes out once a relay is reachable.
 */
import { Effect } from "effect";
import type { EventTemplate } from "nostr-tools/core";
import { finalizeEvent } from "nostr-tools/pure";
import type { NostrEvent } from "../../engine/nostr/event";
import { npubOf, nsecOf, parseNsec, pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { isLightningAddress, readProfile } from "../../engine/nostr/profile";
import { followedKeys } from "../../engine/nostr/follows";
import { type NewEvent, newEvent } from "../../events/make";
import { KV } from "../../events/storage-keys";
import { ownProfileEvent } from "../../projections/nostr";
import { InvalidInput, ServerUnavailable, type WalletError, WalletState } from "../../errors";
import type { CommandTag } from "../command";
import { hexToNpub } from "./contact-form";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";

export interface Key {
  readonly secret: Uint8Array;
  readonly pubkey: string;
  readonly imported: boolean;
}

const needsWallet = (ctx: HandlerContext) =>
  ctx.states.wallet.exists
    ? Effect.void
    : Effect.fail(
        new WalletState({ message: "There is no wallet on this device yet.", key: "errors.no_wallet" }),
      );

/** The key in use: an imported nsec when one is stored, else the seed's. */
export const keyInUse = (ctx: HandlerContext): Effect.Effect<Key, WalletError> =>
  Effect.gen(function* () {
    yield* needsWallet(ctx);
    const nsec = ctx.keys.nostrSecret ? yield* ctx.keys.nostrSecret() : null;
    const imported = nsec === null ? null : parseNsec(nsec);
    if (imported) return { secret: imported, pubkey: pubkeyOf(imported), imported: true };
    const secret = seedSecretKey(yield* ctx.keys.mnemonic());
    return { secret, pubkey: pubkeyOf(secret), imported: false };
  });

/** Records the key in use when the log does not say it yet (so the profile view knows whose profile to show). */
export const identityEvents = (ctx: HandlerContext, key: Key): NewEvent[] => {
  const known = ctx.states.nostr.identity;
  return known?.pubkey === key.pubkey && known.imported === key.imported
    ? []
    : [newEvent("nostr.identity", { pubkey: key.pubkey, imported: key.imported })];
};

/** A signed event of `kind`, dated after the replaceable event it replaces (two edits in one second both count). */
export const sign = (
  ctx: HandlerContext,
  key: Key,
  kind: number,
  content: string,
  tags: string[][],
  after?: NostrEvent | null,
) => {
  const now = Math.floor(ctx.stamp.now() / 1000);
  const template: EventTemplate = {
    kind,
    content,
    tags,
    created_at: after ? Math.max(now, after.created_at + 1) : now,
  };
  return finalizeEvent(template, key.secret);
};

/**
 * A signed event into the outbox (`nostr.queued`), bare of anything its signer attached: to the wallet's
 * relays, or to `to` (an addressee's inbox relays) when given.
 */
export const queued = (e: NostrEvent, to?: readonly string[]): NewEvent => {
  const event = {
    id: e.id,
    pubkey: e.pubkey,
    created_at: e.created_at,
    kind: e.kind,
    tags: e.tags,
    content: e.content,
    sig: e.sig,
  };
  return newEvent("nostr.queued", to && to.length > 0 ? { event, relays: to } : { event });
};

/** The profile of the key in use as the log has it (the identity may have changed in this command). */
export const currentProfile = (ctx: HandlerContext, key: Key): NostrEvent | null =>
  ctx.states.nostr.identity?.pubkey === key.pubkey
    ? ownProfileEvent(ctx.states.nostr)
    : (ctx.states.nostr.profiles.get(key.pubkey) ?? null);

const invalidNsec = () => new InvalidInput({ message: "Invalid nsec", key: "nostr_keys.invalid_nsec" });

export const noPort = () =>
  new ServerUnavailable({ message: "The nostr relays are not running.", key: "chat.error_relays" });

export const getNpub: Handler<"GetNpub"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    return outcome({ npub: npubOf(key.pubkey), imported: key.imported }, identityEvents(ctx, key));
  });

/** The nsec, for the nostr keys screen only (shown once the owner reveals it). */
export const exportNsec: Handler<"ExportNsec"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    return outcome({ nsec: nsecOf(key.secret) });
  });

/** Reads a key's newest profile and follow list from the relays (and its profile from the cache service). */
const fetchIdentity = (ctx: HandlerContext, pubkey: string) =>
  ctx.outside(
    Effect.promise(async () => {
      const port = ctx.nostr;
      if (!port) return [] as NostrEvent[];
      const found = await port.query({ authors: [pubkey], kinds: [0, 3] }).catch(() => [] as NostrEvent[]);
      const fromRelays = found.filter((e) => e.pubkey === pubkey);
      if (fromRelays.some((e) => e.kind === 0)) return fromRelays;
      const cached = await port.cachedProfile(pubkey).catch(() => null);
      return cached ? [...fromRelays, cached] : fromRelays;
    }),
  );

/** The most contacts one import brings from a follow list. */
export const MAX_IMPORTED_CONTACTS = 500;

/** A followed person as a contact to create: their profile's name, picture and lightning address. */
export interface ContactCandidate {
  readonly name: string;
  readonly npub: string;
  readonly ln_address: string;
  readonly image_url: string;
}

/** The followed keys' profiles from the relays, as contacts to create (a short npub when they have no name). */
const followedProfiles = (ctx: HandlerContext, keys: readonly string[]) =>
  ctx.outside(
    Effect.promise(async (): Promise<ContactCandidate[]> => {
      const wanted = keys.slice(0, MAX_IMPORTED_CONTACTS);
      const port = ctx.nostr;
      const found =
        port && wanted.length > 0
          ? await port.query({ authors: wanted, kinds: [0] }).catch(() => [] as NostrEvent[])
          : [];
      const newest = new Map<string, NostrEvent>();
      for (const e of found) {
        const had = newest.get(e.pubkey);
        if (wanted.includes(e.pubkey) && (!had || e.created_at > had.created_at)) newest.set(e.pubkey, e);
      }
      return wanted.flatMap((hex) => {
        const npub = hexToNpub(hex);
        if (!npub) return [];
        const e = newest.get(hex);
        const p = e ? readProfile(e.content) : null;
        const name = (p?.display_name ?? p?.name ?? `${npub.slice(0, 12)}…`).slice(0, 100);
        const lud16 = p?.lud16 && isLightningAddress(p.lud16) ? p.lud16 : "";
        return [{ name, npub, ln_address: lud16, image_url: p?.picture ?? "" }];
      });
    }),
  );

/**
 * Uses an imported nsec (change_nostr_keys): sealed in the vault like the seed, its profile and follow list
 * read from the relays. 'Invalid nsec' for anything else, and nothing is stored.
 */
export const importNsec: Handler<"ImportNsec"> = (cmd, ctx) =>
  Effect.gen(function* () {
    yield* needsWallet(ctx);
    const secret = parseNsec(cmd.nsec);
    if (!secret) return yield* Effect.fail(invalidNsec());
    const key: Key = { secret, pubkey: pubkeyOf(secret), imported: true };
    const fetched = yield* fetchIdentity(ctx, key.pubkey);
    const follows = fetched.filter((e) => e.kind === 3).sort((a, b) => b.created_at - a.created_at)[0];
    const contacts = follows ? yield* followedProfiles(ctx, followedKeys(follows.tags)) : [];
    const known = (e: NostrEvent) =>
      e.kind === 0
        ? ctx.states.nostr.profiles.get(e.pubkey)?.id === e.id
        : ctx.states.nostr.follows.get(e.pubkey)?.id === e.id;
    return outcome(
      { npub: npubOf(key.pubkey), profileFound: fetched.some((e) => e.kind === 0), contacts },
      [
        ...identityEvents(ctx, key),
        ...fetched.filter((e) => !known(e)).map((event) => newEvent("nostr.fetched", { event })),
      ],
      [{ key: KV.nostrSecret, value: { nsec: nsecOf(secret) } }],
    );
  });

/** Forgets an imported key: the seed's key is in use again. */
export const unlinkNostrKey: Handler<"UnlinkNostrKey"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    yield* needsWallet(ctx);
    const mnemonic = yield* ctx.keys.mnemonic();
    const nsec = ctx.keys.nostrSecret ? yield* ctx.keys.nostrSecret() : null;
    if (nsec === null)
      return yield* Effect.fail(
        new WalletState({ message: "No imported key to unlink.", key: "nostr_keys.nothing_to_unlink" }),
      );
    const secret = seedSecretKey(mnemonic);
    const key: Key = { secret, pubkey: pubkeyOf(secret), imported: false };
    return outcome({ npub: npubOf(key.pubkey) }, identityEvents(ctx, key), [
      { key: KV.nostrSecret, value: null },
    ]);
  });

export const nostrHandlers = {
  GetNpub: getNpub,
  ExportNsec: exportNsec,
  ImportNsec: importNsec,
  UnlinkNostrKey: unlinkNostrKey,
} satisfies { readonly [K in CommandTag]?: Handler<K> };

/** The seed is enough to sign; reading the relays for an imported key needs the engine (started on demand). */
export const nostrNeeds: Needs = {
  GetNpub: "seed",
  ExportNsec: "seed",
  ImportNsec: "nostr",
  UnlinkNostrKey: "seed",
};
