/**
 * The social-profile cache service's `user_profile` call (spec 1 §7): a POST of `["user_profile", {pubkey}]`
 * to the base the `primal_api` setting names, answered by an array of events of which the key's kind 0 is
 * used. Bounded in time and size; every event in the answer is checked before it is believed.
 */
import { boundedFetch, type FetchFn } from "../http/bounded";
import { checkEvent, newerThan, type NostrEvent } from "./event";

export const CACHE_LIMITS = { timeoutMs: 10_000, maxBytes: 1_000_000 } as const;

/** No social-profile cache service is set (spec: 'Missing PRIMAL_API environment variable'). */
export class MissingCache extends Error {}

/** The cache answered something other than an array of events, or could not be reached. */
export class CacheFailed extends Error {}

export const fetchCachedProfile = async (
  fetchFn: FetchFn,
  base: string,
  pubkey: string,
): Promise<NostrEvent | null> => {
  const http = boundedFetch(fetchFn, CACHE_LIMITS);
  const res = await http(base, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(["user_profile", { pubkey }]),
  });
  if (!res.ok) throw new CacheFailed(`The profile service answered ${res.status}`);
  let answer: unknown;
  try {
    answer = await res.json();
  } catch {
    throw new CacheFailed("The profile service did not answer JSON");
  }
  if (!Array.isArray(answer)) throw new CacheFailed("The profile service's answer was not an array");
  let newest: NostrEvent | undefined;
  for (const raw of answer) {
    if (typeof raw !== "object" || raw === null || (raw as { kind?: unknown }).kind !== 0) continue;
    const e = checkEvent(raw);
    if (e && e.pubkey === pubkey && newerThan(e, newest)) newest = e;
  }
  return newest ?? null;
};
