/** Fedimint federation invite codes: bech32m with the human-readable part `fed1` (so `fed11…`), any length. */
import { bech32m } from "@scure/base";

/** The invite in lower case, or null when it is not a bech32m `fed11…` string with a valid checksum. */
export const decodeFedimintInvite = (text: string): string | null => {
  if (text.slice(0, 5).toLowerCase() !== "fed11") return null;
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  const invite = text.toLowerCase();
  try {
    const { prefix, words } = bech32m.decode(invite as `${string}1${string}`, false);
    return prefix === "fed1" && words.length > 0 ? invite : null;
  } catch {
    return null;
  }
};
