/**
 * NIP-87 recommendations of ecash custodians: a kind 38000 event (addressable, one per custodian and
 * author) names the custodian by its kind of announcement (`k`: 38172 a Cashu mint, 38173 a Fedimint
 * federation), its identifier (`d`: the mint's URL, the federation's id), and where to reach it (`u`: the
 * URL or invite code, with its kind). Withdrawing one is a NIP-09 deletion of its address. Kept with the
 * events because the nostr projection folds the recommendations the log holds.
 */
import type { Network } from "./types";

export const RECOMMENDATION_KIND = 38000;
export const CASHU_ANNOUNCEMENT_KIND = 38172;
export const FEDIMINT_ANNOUNCEMENT_KIND = 38173;
export const DELETION_KIND = 5;

export interface Recommended {
  readonly kind: "cashu" | "fedimint";
  /** The mint's URL, or the federation's id. */
  readonly id: string;
  /** The mint's URL again, or the federation's invite code. */
  readonly invite: string;
  readonly network: Network;
}

/** NIP-87's network names (`n`): bitcoin is "mainnet". */
const networkName = (n: Network): string => (n === "bitcoin" ? "mainnet" : n);

export const recommendationTags = (r: Recommended): string[][] => [
  ["d", r.id],
  ["k", String(r.kind === "cashu" ? CASHU_ANNOUNCEMENT_KIND : FEDIMINT_ANNOUNCEMENT_KIND)],
  ["u", r.invite, r.kind],
  ["n", networkName(r.network)],
];

/** The address (NIP-01 `a`) of `pubkey`'s recommendation of `id`. */
export const recommendationAddress = (pubkey: string, id: string): string =>
  `${RECOMMENDATION_KIND}:${pubkey}:${id}`;

/** The tags of a deletion (NIP-09) withdrawing the recommendation `event` of `pubkey`. */
export const withdrawalTags = (pubkey: string, id: string, eventId: string | null): string[][] => [
  ["a", recommendationAddress(pubkey, id)],
  ...(eventId ? [["e", eventId]] : []),
  ["k", String(RECOMMENDATION_KIND)],
];

/** The `d` of a recommendation event, or null when it has none. */
export const recommendationId = (tags: readonly (readonly string[])[]): string | null =>
  tags.find((t) => t[0] === "d")?.[1] ?? null;
