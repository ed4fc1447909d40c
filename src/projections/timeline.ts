/**
 * A chat's one timeline (spec 2 chat): the contact's payments and the messages, merged in time order.
 * Pure: the same two lists give the same timeline. Entries at the same second keep their order within
 * their own list, and a payment comes before a message of the same second (a request is answered by a
 * payment, then thanked for).
 */

export interface Dated {
  /** Unix seconds. */
  readonly at: number;
}

export type TimelineEntry<A, M> =
  | { readonly type: "activity"; readonly at: number; readonly item: A }
  | { readonly type: "message"; readonly at: number; readonly item: M };

/**
 * Merges `activity` and `messages`, each already oldest first, into one list oldest first. Stable: ties
 * keep each list's order, activity before messages.
 */
export const mergeTimeline = <A extends Dated, M extends Dated>(
  activity: readonly A[],
  messages: readonly M[],
): TimelineEntry<A, M>[] => {
  const out: TimelineEntry<A, M>[] = [];
  let i = 0;
  let j = 0;
  while (i < activity.length || j < messages.length) {
    const a = activity[i];
    const m = messages[j];
    if (a !== undefined && (m === undefined || a.at <= m.at)) {
      out.push({ type: "activity", at: a.at, item: a });
      i++;
    } else if (m !== undefined) {
      out.push({ type: "message", at: m.at, item: m });
      j++;
    }
  }
  return out;
};

/** Sorts a list oldest first, keeping the order of entries at the same second (a stable sort). */
export const oldestFirst = <T extends Dated>(xs: readonly T[]): T[] =>
  xs
    .map((x, i) => ({ x, i }))
    .sort((p, q) => p.x.at - q.x.at || p.i - q.i)
    .map((p) => p.x);

/** The newest `limit` entries (a page), and whether older ones remain. */
export const lastPage = <T>(xs: readonly T[], limit: number): { items: T[]; more: boolean } => ({
  items: xs.slice(Math.max(0, xs.length - limit)),
  more: xs.length > limit,
});
