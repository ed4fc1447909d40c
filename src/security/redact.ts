/**
 * Logs the owner sends with feedback leave the device: every secret the wallet holds is cut out of them
 * first. One function does it, for every line: the secrets the wallet knows (its seed phrase and each of its
 * words, keys, preimages, connection secrets) and the shapes a secret of any wallet takes (nsec, extended
 * private keys), case-insensitively. Pure, so its property runs in Node.
 */

export const REDACTED = "[redacted]";

/** What the wallet holds that must never leave it: whole strings, and the seed's words. */
export interface HeldSecrets {
  /** Strings cut wherever they appear (hex keys and preimages, the phrase, an xprv), at least 8 characters. */
  readonly strings: readonly string[];
  /** The seed's words, cut where they stand as words (not inside a longer word). */
  readonly words: readonly string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Bech32 nsec keys and base58 extended private keys (xprv, tprv and their SLIP-132 kin). */
const SHAPES: readonly RegExp[] = [/nsec1[02-9ac-hj-np-z]{6,}/gi, /[xyztuv]prv[1-9a-z]{20,}/gi];

/** `lines` with every held secret and every secret-shaped string replaced by `[redacted]`. */
export const redactLines = (lines: readonly string[], held: HeldSecrets): string[] => {
  const strings = [...new Set(held.strings.filter((s) => s.length >= 8))].sort((a, b) => b.length - a.length);
  const patterns: RegExp[] = [...SHAPES];
  if (strings.length > 0) patterns.push(new RegExp(strings.map(escapeRe).join("|"), "gi"));
  const words = [...new Set(held.words.map((w) => w.trim().toLowerCase()).filter((w) => /^[a-z]+$/.test(w)))];
  if (words.length > 0) patterns.push(new RegExp(`(?<![a-z])(?:${words.join("|")})(?![a-z])`, "gi"));
  return lines.map((line) => {
    // A cut never joins two pieces into a new secret (the marker stands between them); a few passes make
    // sure of it all the same.
    let out = line;
    for (let pass = 0; pass < 4; pass++) {
      let next = out;
      for (const p of patterns) next = next.replace(p, REDACTED);
      if (next === out) break;
      out = next;
    }
    return out;
  });
};
