/**
 * The contact form's rules (spec 1 §5, spec 2 §5), one pure function the worker's handlers enforce and the
 * screens call for inline errors: name required; lightning address required and e-mail style (a LUD-16
 * address the wallet can pay); npub optional, and when filled it must decode as an npub.
 */
import { decode, npubEncode } from "nostr-tools/nip19";
import { decodeLightningAddress } from "../../engine/parse/lightning-address";

export interface ContactForm {
  readonly name: string;
  readonly npub: string;
  readonly ln_address: string;
}

export type ContactField = keyof ContactForm;

/** The broken rule per field, each an i18n key of the catalogue. */
export type ContactFormErrors = Partial<Record<ContactField, string>>;

/** The English text of each key, for the worker's errors. */
export const CONTACT_ERROR_TEXT: Readonly<Record<string, string>> = {
  "contacts.error_name": "Name is required.",
  "contacts.error_ln_address_missing": "A lightning address is required.",
  "contacts.email_error": "That doesn't look like a lightning address.",
  "contacts.npub_error": "That doesn't look like a nostr npub.",
};

/** The hex public key of an npub, or null when it does not decode as one (any failure counts as invalid). */
export const npubToHex = (npub: string): string | null => {
  try {
    const d = decode(npub.trim());
    return d.type === "npub" ? d.data : null;
  } catch {
    return null;
  }
};

/** The npub of a 32-byte hex public key, or null when it is not one. */
export const hexToNpub = (hex: string): string | null => {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  try {
    return npubEncode(hex);
  } catch {
    return null;
  }
};

/**
 * What is wrong with `form` (trimmed); an empty object when it may be saved. A contact taken from a social
 * profile (`lnAddressRequired` false) may lack a lightning address, but one it has must still be valid.
 */
export const contactFormErrors = (
  form: ContactForm,
  { lnAddressRequired = true }: { readonly lnAddressRequired?: boolean } = {},
): ContactFormErrors => {
  const errors: ContactFormErrors = {};
  if (form.name.trim() === "") errors.name = "contacts.error_name";
  const ln = form.ln_address.trim();
  if (ln === "") {
    if (lnAddressRequired) errors.ln_address = "contacts.error_ln_address_missing";
  } else if (decodeLightningAddress(ln) === null) errors.ln_address = "contacts.email_error";
  const npub = form.npub.trim();
  if (npub !== "" && npubToHex(npub) === null) errors.npub = "contacts.npub_error";
  return errors;
};
