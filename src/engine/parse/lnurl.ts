/**
 * LNURL strings: bech32 `lnurl1…` (LUD-01) and the LUD-17 schemes `lnurlp://`, `lnurlw://`, `lnurlc://`
 * and `keyauth://`, each decoded to the https URL the wallet calls.
 */
import { bech32, utf8 } from "@scure/base";
import { schemeFor, usesExpectedScheme } from "./hosts";

/** LNURL payloads are longer than bech32's usual 90-character limit; spec 1 §5 caps them at 1023. */
export const LNURL_MAX_LENGTH = 1023;

export interface Lnurl {
  /** The URL to call (https, or http for onion and loopback hosts). */
  readonly url: string;
  /** LNURL-auth (LUD-04): `tag=login` or the `keyauth://` scheme. */
  readonly isAuth: boolean;
}

const LUD17_SCHEME = /^(lnurlp|lnurlw|lnurlc|keyauth):\/\//i;

const toLnurl = (text: string, forceAuth: boolean): Lnurl | null => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!usesExpectedScheme(url) || url.hostname === "") return null;
  return { url: url.toString(), isAuth: forceAuth || url.searchParams.get("tag") === "login" };
};

/** Decodes an LNURL (any case, no `lightning:` prefix), or null when it is not one. */
export const decodeLnurl = (text: string): Lnurl | null => {
  const scheme = LUD17_SCHEME.exec(text);
  if (scheme !== null) {
    const rest = text.slice(scheme[0].length);
    const hostname = rest.split(/[/?#:]/, 1)[0] ?? "";
    return toLnurl(`${schemeFor(hostname)}//${rest}`, scheme[1]?.toLowerCase() === "keyauth");
  }
  if (text.slice(0, 6).toLowerCase() !== "lnurl1" || text.length > LNURL_MAX_LENGTH) return null;
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  try {
    const { prefix, words } = bech32.decode(text.toLowerCase() as `${string}1${string}`, LNURL_MAX_LENGTH);
    if (prefix !== "lnurl") return null;
    return toLnurl(utf8.encode(bech32.fromWords(words)), false);
  } catch {
    return null;
  }
};

/** Encodes a URL as a bech32 LNURL in upper case, the form that makes the smallest QR code. */
export const encodeLnurl = (url: string): string =>
  bech32.encode("lnurl", bech32.toWords(utf8.decode(url)), LNURL_MAX_LENGTH).toUpperCase();
