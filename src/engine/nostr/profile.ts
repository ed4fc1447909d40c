/**
 * Profiles (kind 0, spec 2 §3): what the wallet reads of one, and the content it publishes when the owner
 * creates, edits or deletes theirs. Content is input from any client: only bounded strings are read, and
 * fields the wallet does not know are kept as another client left them.
 */
import { contentObject } from "../../projections/nostr";
import { decodeLightningAddress } from "../parse/lightning-address";

export { contentObject, type NostrProfile, readProfile } from "../../projections/nostr";

/** The owner's edit (spec 2 §3 profile edit payload: nym, imageUrl, lightningAddress, plus the existing nip05). */
export interface ProfileEdit {
  readonly nym: string;
  readonly imageUrl: string | null;
  readonly lightningAddress: string | null;
}

const setOrDrop = (o: Record<string, unknown>, key: string, value: string | null) => {
  if (value) o[key] = value;
  else delete o[key];
};

/**
 * The content of an edited profile: the nym as name and display name, the picture, the lightning address;
 * nip05 and every field another client set stay, and a profile edited after a delete is no longer deleted.
 */
export const editedContent = (previous: string | null, edit: ProfileEdit): string => {
  const o = { ...(previous === null ? {} : contentObject(previous)) };
  delete o.deleted;
  setOrDrop(o, "name", edit.nym.trim() || null);
  setOrDrop(o, "display_name", edit.nym.trim() || null);
  setOrDrop(o, "picture", edit.imageUrl?.trim() || null);
  if ("image" in o) setOrDrop(o, "image", edit.imageUrl?.trim() || null);
  setOrDrop(o, "lud16", edit.lightningAddress?.trim() || null);
  return JSON.stringify(o);
};

/** A deleted profile: nothing of the old one is kept, the deleted flag says so to every client. */
export const deletedContent = (): string =>
  JSON.stringify({ name: "Deleted", display_name: "Deleted", deleted: true });

/** A profile's lightning address must be one (spec 2 §5: contacts.email_error otherwise). */
export const isLightningAddress = (s: string): boolean => decodeLightningAddress(s.trim()) !== null;
