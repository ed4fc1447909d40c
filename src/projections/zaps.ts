/** A zap as the friends tab shows it (spec 1 §3 zap), with the names of the people in it when known. */
export interface FriendZap {
  readonly kind: "public" | "private" | "anonymous";
  readonly from_hexpub: string | null;
  readonly to_hexpub: string;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly amount_sats: bigint;
  readonly note: string;
  readonly event_id: string;
  readonly content: string;
  readonly from_name: string | null;
  readonly to_name: string | null;
}
