/**
 * The follow list (NIP-02, kind 3) as its tags: `["p", <hex pubkey>, <relay hint>?, <petname>?]`. Another
 * client may have written the list: its entries, relay hints and petnames, and any tag that is not a
 * `p` tag, are kept exactly as they were; only the keys followed or unfollowed here change.
 */

const HEX_KEY = /^[0-9a-f]{64}$/;

const keyOf = (tag: readonly string[]): string | null =>
  tag[0] === "p" && typeof tag[1] === "string" ? tag[1].toLowerCase() : null;

/**
 * `existingTags` with every key of `follow` present (added at the end, in order, when missing) and every key
 * of `unfollow` absent (all its entries removed). A key in both is unfollowed. Keys are hex public keys;
 * one that is not 64 hex digits is not added. Everything else is kept in its order, untouched.
 */
export const applyFollows = (
  existingTags: readonly (readonly string[])[],
  follow: readonly string[],
  unfollow: readonly string[],
): string[][] => {
  const drop = new Set(unfollow.map((k) => k.toLowerCase()));
  const out: string[][] = [];
  const present = new Set<string>();
  for (const tag of existingTags) {
    const key = keyOf(tag);
    if (key !== null && drop.has(key)) continue;
    if (key !== null) present.add(key);
    out.push([...tag]);
  }
  for (const raw of follow) {
    const key = raw.toLowerCase();
    if (!HEX_KEY.test(key) || drop.has(key) || present.has(key)) continue;
    present.add(key);
    out.push(["p", key]);
  }
  return out;
};

/** The hex keys a follow list follows, each once, in order. */
export const followedKeys = (tags: readonly (readonly string[])[]): string[] => [
  ...new Set(tags.map(keyOf).filter((k): k is string => k !== null && HEX_KEY.test(k))),
];
