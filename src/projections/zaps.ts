/** A zap (spec 1 §3): public, private or anonymous, who to whom, when, how much, and its note. */
export interface Zap {
  readonly kind: "public" | "private" | "anonymous";
  readonly from_hexpub: string | null;
  readonly to_hexpub: string;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly amount_sats: bigint;
  readonly note: string;
  readonly event_id: string;
  readonly content: string;
}

/**
 * A zap as the friends tab shows it, with the names of the people in it when known, and the person its row
 * opens a chat with (the sender, or the recipient of an anonymous zap): their npub and, when they are a
 * saved contact, its id (else the row asks before adding them, spec 1 home).
 */
export interface FriendZap extends Zap {
  readonly from_name: string | null;
  readonly to_name: string | null;
  readonly chat: { readonly npub: string; readonly name: string | null; readonly contact_id: string | null };
}
