/**
 * The owner's nostr identity and profile (spec 2: profile, nostr keys, first-run setup): the key in use (the
 * seed's by NIP-06, or an imported nsec sealed like the seed), and the profile and follow list it publishes.
 * Handlers sign here, in the worker; what they publish is queued in the log (`nostr.queued`) and the engine's
 * outbox sends it until a relay accepts it, so an edit made offline goes out once a relay is reachable.
 */
import { Effect } from "effect";
import type { EventTemplate } from "nostr-tools/core";
import { finalizeEvent } from "nostr-tools/pure";
import {
  fetchPicture,
  MAX_PICTURE_BYTES,
  PICTURE_TYPES,
  pictureHash,
  uploadAuth,
} from "../engine/nostr/blossom";
import type { NostrEvent } from "../engine/nostr/event";
import { npubOf, nsecOf, parseNpub, parseNsec, pubkeyOf, seedSecretKey } from "../engine/nostr/keys";
import { MissingCache } from "../engine/nostr/cache";
import {
  deletedContent,
  editedContent,
  isLightningAddress,
  type NostrProfile,
  readProfile,
} from "../engine/nostr/profile";
import { applyFollows, followedKeys } from "../engine/nostr/follows";
import { type NewEvent, newEvent } from "../events/make";
import { KV } from "../events/storage-keys";
import { crdtProjection } from "../projections/crdt";
import { ownFollowsEvent, ownProfileEvent } from "../projections/nostr";
import { InvalidInput, ServerUnavailable, type WalletError, WalletState } from "../errors";
import type { Command, CommandTag, ResultOf } from "./command";
import { hexToNpub, npubToHex } from "./contact-form";
import { type Handler, type HandlerContext, type Needs, outcome } from "./context";

export interface Key {
  readonly secret: Uint8Array;
  readonly pubkey: string;
  readonly imported: boolean;
}

const needsWallet = (ctx: HandlerContext) =>
  ctx.states.wallet.exists
    ? Effect.void
    : Effect.fail(new WalletState({ message: "There is no wallet on this device yet." }));

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
const sign = (
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
const currentProfile = (ctx: HandlerContext, key: Key): NostrEvent | null =>
  ctx.states.nostr.identity?.pubkey === key.pubkey
    ? ownProfileEvent(ctx.states.nostr)
    : (ctx.states.nostr.profiles.get(key.pubkey) ?? null);

const invalidNsec = () => new InvalidInput({ message: "Invalid nsec", key: "nostr_keys.invalid_nsec" });
const failedToLoad = () =>
  new ServerUnavailable({ message: "Failed to load profile", key: "profile.error_load" });

const noPort = () =>
  new ServerUnavailable({ message: "The nostr relays are not running.", key: "profile.error_load" });

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

const MAX_NAME = 100;

/** First-run profile (setup_new_profile): a name and a picture. */
export const setupNewProfile: Handler<"SetupNewProfile"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const name = cmd.name.trim();
    if (name === "" || name.length > MAX_NAME)
      return yield* Effect.fail(
        new InvalidInput({ message: "Please enter a name.", key: "profile.error_name" }),
      );
    const key = yield* keyInUse(ctx);
    const previous = currentProfile(ctx, key);
    const content = editedContent(previous?.content ?? null, {
      nym: name,
      imageUrl: cmd.imageUrl,
      lightningAddress: previous ? readProfile(previous.content).lud16 : null,
    });
    return outcome(null, [...identityEvents(ctx, key), queued(sign(ctx, key, 0, content, [], previous))]);
  });

/** Edits the profile (edit_nostr_profile): nym, picture and lightning address; nip05 and other fields stay. */
export const editNostrProfile: Handler<"EditNostrProfile"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const address = cmd.lightningAddress.trim();
    if (address !== "" && !isLightningAddress(address))
      return yield* Effect.fail(
        new InvalidInput({
          message: "That doesn't look like a lightning address.",
          key: "contacts.email_error",
        }),
      );
    if (cmd.nym.trim().length > MAX_NAME)
      return yield* Effect.fail(
        new InvalidInput({ message: "Please enter a name.", key: "profile.error_name" }),
      );
    const key = yield* keyInUse(ctx);
    const previous = currentProfile(ctx, key);
    const content = editedContent(previous?.content ?? null, {
      nym: cmd.nym,
      imageUrl: cmd.imageUrl,
      lightningAddress: address === "" ? null : address.toLowerCase(),
    });
    return outcome(null, [...identityEvents(ctx, key), queued(sign(ctx, key, 0, content, [], previous))]);
  });

/** Deletes the profile (delete_profile): a kind 0 marked deleted replaces it on the relays. */
export const deleteProfile: Handler<"DeleteProfile"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    const previous = currentProfile(ctx, key);
    return outcome(null, [
      ...identityEvents(ctx, key),
      queued(sign(ctx, key, 0, deletedContent(), [], previous)),
    ]);
  });

/** Uploads a profile picture to the media server (upload_profile_pic); answers its URL. */
export const uploadProfilePic: Handler<"UploadProfilePic"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!(PICTURE_TYPES as readonly string[]).includes(cmd.type))
      return yield* Effect.fail(
        new InvalidInput({
          message: "Choose a PNG, JPEG, GIF or WebP picture.",
          key: "profile.error_picture_type",
        }),
      );
    if (cmd.bytes.length === 0 || cmd.bytes.length > MAX_PICTURE_BYTES)
      return yield* Effect.fail(
        new InvalidInput({ message: "The picture must be at most 5 MB.", key: "profile.error_picture_size" }),
      );
    const key = yield* keyInUse(ctx);
    const port = ctx.nostr;
    if (!port) return yield* Effect.fail(noPort());
    const auth = yield* Effect.promise(() =>
      uploadAuth(
        (draft) => finalizeEvent(draft, key.secret),
        pictureHash(cmd.bytes),
        Math.floor(ctx.stamp.now() / 1000),
      ),
    );
    const url = yield* ctx.outside(
      Effect.tryPromise({
        try: () => port.upload(cmd.bytes, cmd.type, auth),
        catch: (e) =>
          new ServerUnavailable({
            message: e instanceof Error ? e.message : "The picture could not be uploaded.",
            key: "profile.error_upload",
          }),
      }),
    );
    return outcome({ url });
  });

/**
 * A profile (get_nostr_profile): the owner's, or the one of `npub`, read from the relays, else from the
 * cache service. 'Failed to load profile' when neither answers; 'Missing PRIMAL_API environment variable'
 * when no cache service is set and the relays have none.
 */
export const getNostrProfile: Handler<"GetNostrProfile"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const key = cmd.npub ? null : yield* keyInUse(ctx);
    const pubkey = key?.pubkey ?? (cmd.npub ? parseNpub(cmd.npub) : null);
    if (!pubkey)
      return yield* Effect.fail(new InvalidInput({ message: "Invalid npub", key: "contacts.npub_error" }));
    const port = ctx.nostr;
    if (!port) return yield* Effect.fail(noPort());
    const relayFound = yield* ctx.outside(
      Effect.promise(() => port.query({ authors: [pubkey], kinds: [0] }).catch(() => [] as NostrEvent[])),
    );
    let newest: NostrEvent | null = null;
    for (const e of relayFound)
      if (e.pubkey === pubkey && (!newest || e.created_at > newest.created_at)) newest = e;
    if (!newest)
      newest = yield* ctx.outside(
        Effect.tryPromise({
          try: () => port.cachedProfile(pubkey),
          catch: (e): WalletError =>
            e instanceof MissingCache
              ? new ServerUnavailable({ message: e.message, key: "profile.error_missing_cache" })
              : failedToLoad(),
        }),
      );
    if (!newest) return outcome(null as NostrProfile | null);
    // The owner's own profile edited on another device: the log learns of it.
    const own = key !== null && ctx.states.nostr.profiles.get(pubkey)?.id !== newest.id;
    const stored = ctx.states.nostr.profiles.get(pubkey);
    const events =
      own && (!stored || newest.created_at > stored.created_at)
        ? [newEvent("nostr.fetched", { event: newest })]
        : [];
    return outcome(readProfile(newest.content) as NostrProfile | null, [
      ...(key ? identityEvents(ctx, key) : []),
      ...events,
    ]);
  });

/**
 * Publishes the follow list (kind 3) with `follow` added and `unfollow` removed (hex keys), keeping every
 * entry, relay hint and the content another client wrote (src/engine/nostr/follows.ts). The newest list is
 * read from the relays first when the log has none of this key, so a list made elsewhere is not replaced.
 */
export const publishFollows: Handler<"PublishFollows"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const key = yield* keyInUse(ctx);
    let previous =
      ctx.states.nostr.identity?.pubkey === key.pubkey ? ownFollowsEvent(ctx.states.nostr) : null;
    const fetched: NostrEvent[] = [];
    if (!previous && ctx.nostr) {
      const port = ctx.nostr;
      const found = yield* ctx.outside(
        Effect.promise(() =>
          port.query({ authors: [key.pubkey], kinds: [3] }).catch(() => [] as NostrEvent[]),
        ),
      );
      for (const e of found)
        if (e.pubkey === key.pubkey && (!previous || e.created_at > previous.created_at)) previous = e;
      if (previous) fetched.push(previous);
    }
    const tags = applyFollows(previous?.tags ?? [], cmd.follow, cmd.unfollow);
    const unchanged = previous !== null && JSON.stringify(tags) === JSON.stringify(previous.tags);
    return outcome(null, [
      ...identityEvents(ctx, key),
      ...fetched.map((event) => newEvent("nostr.fetched", { event })),
      ...(unchanged ? [] : [queued(sign(ctx, key, 3, previous?.content ?? "", tags, previous))]),
    ]);
  });

/**
 * What follows a command in the worker's queue: an import brings the followed people in as contacts
 * (followed), and following or unfollowing a contact publishes the follow list.
 */
export const nostrFollowUps = (
  command: Command,
  result: unknown,
  states: HandlerContext["states"],
): Command[] => {
  if (command._tag === "ImportNsec") {
    // All of them in one command: one change of the owner's document, followed already (they come from the list).
    const { contacts } = result as ResultOf<"ImportNsec">;
    return contacts.length > 0 ? [{ _tag: "ImportContacts", contacts }] : [];
  }
  if (command._tag === "CreateContact" && command.fromProfile && command.npub !== "") {
    // A contact brought in from (or already kept and found in) the imported follow list is followed.
    const { id } = result as ResultOf<"CreateContact">;
    const hex = npubToHex(command.npub);
    const list = states.nostr.identity ? states.nostr.follows.get(states.nostr.identity.pubkey) : undefined;
    const followed = crdtProjection.view(states.crdt).contacts?.[id]?.is_followed ?? false;
    if (!followed && hex && list && followedKeys(list.tags).includes(hex))
      return [{ _tag: "SetFollowed", id, followed: true }];
    return [];
  }
  if (command._tag === "SetFollowed") {
    const contact = crdtProjection.view(states.crdt).contacts?.[command.id];
    const hex = contact?.npub ? npubToHex(contact.npub) : null;
    if (!hex) return [];
    return [
      {
        _tag: "PublishFollows",
        follow: command.followed ? [hex] : [],
        unfollow: command.followed ? [] : [hex],
      },
    ];
  }
  return [];
};

/** A picture's bytes for the screens (a profile or contact avatar), read within bounds by the worker. */
export const getPicture: Handler<"GetPicture"> = (cmd, ctx) =>
  ctx
    .outside(
      Effect.tryPromise({
        try: () => fetchPicture((input, init) => fetch(input, init), cmd.url),
        catch: (e) =>
          new ServerUnavailable({
            message: e instanceof Error ? e.message : "The picture could not be read.",
          }),
      }),
    )
    .pipe(Effect.map((picture) => outcome(picture)));

export const nostrHandlers = {
  GetPicture: getPicture,
  PublishFollows: publishFollows,
  GetNpub: getNpub,
  ExportNsec: exportNsec,
  ImportNsec: importNsec,
  UnlinkNostrKey: unlinkNostrKey,
  SetupNewProfile: setupNewProfile,
  EditNostrProfile: editNostrProfile,
  DeleteProfile: deleteProfile,
  UploadProfilePic: uploadProfilePic,
  GetNostrProfile: getNostrProfile,
} satisfies { readonly [K in CommandTag]?: Handler<K> };

/** The seed is enough to sign; reading relays, the cache or uploading needs the engine (started on demand). */
export const nostrNeeds: Needs = {
  GetNpub: "seed",
  ExportNsec: "seed",
  ImportNsec: "nostr",
  UnlinkNostrKey: "seed",
  SetupNewProfile: "seed",
  EditNostrProfile: "seed",
  DeleteProfile: "seed",
  UploadProfilePic: "nostr",
  GetNostrProfile: "nostr",
  PublishFollows: "nostr",
};
