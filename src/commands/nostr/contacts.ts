/**
 * Contacts (spec 1 §2, spec 2 §3): create, edit, delete and follow, kept in the owner's Automerge document
 * so they merge across devices; and the global profile search through the social-profile cache service.
 * Every field is written on its own, so edits of different fields on two devices both survive a merge.
 */
import { Effect } from "effect";
import { globalFetch } from "../../engine/http/bounded";
import type { ContactRecord, WalletDoc } from "../../crdt/doc";
import { makeChange } from "../../crdt/doc";
import { CacheFailed, cacheClient, type ProfileSearchResult } from "../../engine/nostr/search";
import { decodeLightningAddress } from "../../engine/parse/lightning-address";
import { newEvent } from "../../events/make";
import { contactForNpub } from "../../projections/contacts";
import { crdtProjection } from "../../projections/crdt";
import type { CommandTag } from "../command";
import { CONTACT_ERROR_TEXT, contactFormErrors, type ContactFormErrors, npubToHex } from "./contact-form";
import { type Handler, type HandlerContext, outcome } from "../context";
import { InvalidInput, ServerUnavailable, unexpected } from "../../errors";

type ContactsTag =
  | "CreateContact"
  | "ImportContacts"
  | "EditContact"
  | "DeleteContact"
  | "SetFollowed"
  | "SearchProfiles";

const LNURL = /^lnurl1[02-9ac-hj-np-z]+$/i;
const MAX_URL = 2_000;

const docOf = (ctx: HandlerContext) => crdtProjection.view(ctx.states.crdt);

const changeEvents = (ctx: HandlerContext, edit: (d: WalletDoc) => void) => {
  const change = makeChange(docOf(ctx), ctx.stamp.device, edit);
  return change ? [newEvent("crdt.change", { change })] : [];
};

/** The first broken rule as the worker's error (the screens show every field's at once). */
const formProblem = (errors: ContactFormErrors): InvalidInput | null => {
  const key = errors.name ?? errors.ln_address ?? errors.npub;
  return key ? new InvalidInput({ message: CONTACT_ERROR_TEXT[key] ?? key, key }) : null;
};

const notFound = () => new InvalidInput({ message: "Contact not found", key: "contacts.error_not_found" });

/** An optional link the contact came with: kept only when it is what it says it is. */
const lnurlOrNull = (v: string | undefined): string | null => {
  const s = v?.trim() ?? "";
  return LNURL.test(s) ? s.toLowerCase() : null;
};
const imageOrNull = (v: string | undefined): string | null => {
  const s = v?.trim() ?? "";
  if (s === "" || s.length > MAX_URL) return null;
  try {
    const u = new URL(s);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
};

/** The fields of a valid form as stored: trimmed, the lightning address in its canonical lower case. */
const cleaned = (form: { name: string; npub: string; ln_address: string }) => ({
  name: form.name.trim(),
  npub: form.npub.trim() === "" ? null : form.npub.trim(),
  ln_address:
    form.ln_address.trim() === "" ? null : (decodeLightningAddress(form.ln_address.trim())?.address ?? null),
});

const live = (ctx: HandlerContext, id: string): ContactRecord | null => {
  const contacts = docOf(ctx).contacts ?? {};
  const c = Object.hasOwn(contacts, id) ? contacts[id] : undefined;
  return c && !c.deleted ? c : null;
};

/**
 * create_new_contact: from the contact form (every rule of the form), or from a social profile the owner
 * chose in search (`fromProfile`: an npub is required, a lightning address optional). A profile already
 * among the contacts is not added twice: its contact is answered.
 */
export const createContact: Handler<"CreateContact"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const fromProfile = cmd.fromProfile === true;
    const errors = contactFormErrors(cmd, { lnAddressRequired: !fromProfile });
    if (fromProfile && cmd.npub.trim() === "") errors.npub = "contacts.npub_error";
    const problem = formProblem(errors);
    if (problem) return yield* Effect.fail(problem);
    const fields = cleaned(cmd);
    if (fromProfile && fields.npub !== null) {
      const existing = contactForNpub(docOf(ctx).contacts ?? {}, fields.npub);
      if (existing) return outcome({ id: existing.id, existing: true });
    }
    const id = ctx.stamp.uuid();
    const record: ContactRecord = {
      id,
      ...fields,
      lnurl: lnurlOrNull(cmd.lnurl),
      image_url: imageOrNull(cmd.image_url),
      is_followed: false,
      created_at: Math.floor(ctx.stamp.now() / 1000),
    };
    return outcome(
      { id, existing: false },
      changeEvents(ctx, (d) => {
        d.contacts[id] = record;
      }),
    );
  });

/**
 * The people of an imported follow list as followed contacts, all in one change of the owner's document:
 * a thousand people are one copy of the document and one event, not a thousand of each. A person already
 * kept (by npub) is followed; one the form's rules refuse (no npub, a bad address) is left out.
 */
export const importContacts: Handler<"ImportContacts"> = (cmd, ctx) =>
  Effect.sync(() => {
    const kept = docOf(ctx).contacts ?? {};
    const fresh: ContactRecord[] = [];
    const follow = new Set<string>();
    const seen = new Set<string>();
    for (const c of cmd.contacts) {
      const errors = contactFormErrors(c, { lnAddressRequired: false });
      if (formProblem(errors) || c.npub.trim() === "" || npubToHex(c.npub.trim()) === null) continue;
      const fields = cleaned(c);
      if (fields.npub === null || seen.has(fields.npub)) continue;
      seen.add(fields.npub);
      const existing = contactForNpub(kept, fields.npub);
      if (existing) {
        if (!existing.is_followed) follow.add(existing.id);
        continue;
      }
      fresh.push({
        id: ctx.stamp.uuid(),
        ...fields,
        lnurl: null,
        image_url: imageOrNull(c.image_url),
        is_followed: true,
        created_at: Math.floor(ctx.stamp.now() / 1000),
      });
    }
    return outcome(
      { created: fresh.length, followed: fresh.length + follow.size },
      fresh.length + follow.size === 0
        ? []
        : changeEvents(ctx, (d) => {
            for (const r of fresh) d.contacts[r.id] = r;
            for (const id of follow) {
              const r = d.contacts[id];
              if (r && !r.is_followed) r.is_followed = true;
            }
          }),
    );
  });

/** edit_contact: the form's rules again; only the fields that changed are written. */
export const editContact: Handler<"EditContact"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const current = live(ctx, cmd.id);
    if (!current) return yield* Effect.fail(notFound());
    const problem = formProblem(contactFormErrors(cmd));
    if (problem) return yield* Effect.fail(problem);
    const fields: Partial<ContactRecord> = { ...cleaned(cmd) };
    if (cmd.lnurl !== undefined) fields.lnurl = lnurlOrNull(cmd.lnurl);
    if (cmd.image_url !== undefined) fields.image_url = imageOrNull(cmd.image_url);
    // A contact whose npub is gone or changed no longer follows the old key.
    if (fields.npub !== current.npub) fields.is_followed = false;
    return outcome(
      null,
      changeEvents(ctx, (d) => {
        const c = d.contacts[cmd.id];
        if (!c) return;
        for (const [k, v] of Object.entries(fields) as [keyof ContactRecord, never][])
          if (c[k] !== v) c[k] = v;
      }),
    );
  });

/** delete_contact: the contact becomes a blank tombstone, so no other device's edit brings it back. */
export const deleteContact: Handler<"DeleteContact"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!live(ctx, cmd.id)) return yield* Effect.fail(notFound());
    return outcome(
      null,
      changeEvents(ctx, (d) => {
        const c = d.contacts[cmd.id];
        if (!c) return;
        c.deleted = true;
        c.name = "";
        c.npub = null;
        c.ln_address = null;
        c.lnurl = null;
        c.image_url = null;
        c.is_followed = false;
      }),
    );
  });

/**
 * follow_npub / unfollow_npub as the contact's state; the follow list (kind 3) published from it keeps
 * every entry another client put there (src/engine/nostr/follows.ts).
 */
export const setFollowed: Handler<"SetFollowed"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const c = live(ctx, cmd.id);
    if (!c) return yield* Effect.fail(notFound());
    if (c.npub === null || npubToHex(c.npub) === null)
      return yield* Effect.fail(
        new InvalidInput({ message: "Contact doesn't have a npub", key: "contacts.error_no_npub" }),
      );
    return outcome(
      null,
      changeEvents(ctx, (d) => {
        const r = d.contacts[cmd.id];
        if (r && r.is_followed !== cmd.followed) r.is_followed = cmd.followed;
      }),
    );
  });

const fromCache = (e: unknown) => {
  if (!(e instanceof CacheFailed)) return unexpected(e);
  const key =
    e.kind === "missing_base"
      ? "search.error_missing_primal"
      : e.kind === "search"
        ? "search.error_search"
        : "search.error_profile";
  return new ServerUnavailable({ message: e.message, key });
};

/** Global search of social profiles through the cache service (user_search, limit 10). */
export const searchProfiles: Handler<"SearchProfiles"> = (cmd, ctx) => {
  const client = cacheClient(globalFetch, ctx.config?.nostr?.primal ?? "");
  return Effect.map(
    ctx.outside(Effect.tryPromise({ try: () => client.search(cmd.query), catch: fromCache })),
    (results: ProfileSearchResult[]) => outcome(results),
  );
};

export const contactsHandlers: { readonly [K in ContactsTag & CommandTag]: Handler<K> } = {
  CreateContact: createContact,
  ImportContacts: importContacts,
  EditContact: editContact,
  DeleteContact: deleteContact,
  SetFollowed: setFollowed,
  SearchProfiles: searchProfiles,
};
