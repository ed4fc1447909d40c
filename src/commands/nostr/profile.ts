/**
 * The owner's nostr profile and follow list (spec 2: profile, first-run setup): set up, edited, deleted,
 * its picture uploaded, anyone's profile read, the follow list published, and pictures read for the screens.
 * Signed with the key in use (`nostr.ts`) and queued in the log for the engine's outbox.
 */
import { Effect } from "effect";
import { globalFetch } from "../../engine/http/bounded";
import { finalizeEvent } from "nostr-tools/pure";
import {
  fetchPicture,
  MAX_PICTURE_BYTES,
  PICTURE_TYPES,
  pictureHash,
  uploadAuth,
} from "../../engine/nostr/blossom";
import type { NostrEvent } from "../../engine/nostr/event";
import { parseNpub } from "../../engine/nostr/keys";
import { MissingCache } from "../../engine/nostr/cache";
import {
  deletedContent,
  editedContent,
  isLightningAddress,
  type NostrProfile,
  readProfile,
} from "../../engine/nostr/profile";
import { applyFollows } from "../../engine/nostr/follows";
import { newEvent } from "../../events/make";
import { ownFollowsEvent } from "../../projections/nostr";
import { InvalidInput, ServerUnavailable, type WalletError } from "../../errors";
import type { CommandTag } from "../command";
import { type Handler, type Needs, outcome } from "../context";
import { currentProfile, identityEvents, keyInUse, noPort, queued, sign } from "./nostr";

const failedToLoad = () =>
  new ServerUnavailable({ message: "Failed to load profile", key: "profile.error_load" });

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
      return yield* Effect.fail(
        new InvalidInput({ message: "That doesn't look like a nostr npub.", key: "contacts.npub_error" }),
      );
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

/** A picture's bytes for the screens (a profile or contact avatar), read within bounds by the worker. */
export const getPicture: Handler<"GetPicture"> = (cmd, ctx) =>
  ctx
    .outside(
      Effect.tryPromise({
        try: () => fetchPicture(globalFetch, cmd.url),
        catch: (e) =>
          e instanceof Error
            ? new ServerUnavailable({
                message: e.message,
                key: "profile.error_picture_reason",
                values: { reason: e.message },
              })
            : new ServerUnavailable({
                message: "The picture could not be read.",
                key: "profile.error_picture_read",
              }),
      }),
    )
    .pipe(Effect.map((picture) => outcome(picture)));

export const nostrProfileHandlers = {
  GetPicture: getPicture,
  PublishFollows: publishFollows,
  SetupNewProfile: setupNewProfile,
  EditNostrProfile: editNostrProfile,
  DeleteProfile: deleteProfile,
  UploadProfilePic: uploadProfilePic,
  GetNostrProfile: getNostrProfile,
} satisfies { readonly [K in CommandTag]?: Handler<K> };

/** The seed is enough to sign; reading relays, the cache or uploading needs the engine (started on demand). */
export const nostrProfileNeeds: Needs = {
  SetupNewProfile: "seed",
  EditNostrProfile: "seed",
  DeleteProfile: "seed",
  UploadProfilePic: "nostr",
  GetNostrProfile: "nostr",
  PublishFollows: "nostr",
};
