/**
 * The friends tab's zaps (spec 1 home, friends): zap receipts (NIP-57, kind 9735) among the people the owner
 * follows, from the social-profile cache service's `zaps_feed` (kinds 9735, 0 and the paging marker
 * 10000113, at most 100, paged with `until`). The cache is input like any server: the answer must be an
 * array ('Zap response was not an array'), read within a deadline and a byte cap ('Failed to load zaps'
 * otherwise); each receipt's signature is checked, its zap request (the `description` tag) must be a signed
 * kind 9734 naming the same recipient, and a receipt without a bolt11 amount that decodes is skipped.
 */
import { Data } from "effect";
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import { decodeBolt11 } from "../parse/bolt11";
import type { Zap } from "../../projections/zaps";
import { checkEvent, type NostrEvent } from "./event";

export type { Zap };

/** Spec: zaps limit 100. */
export const ZAPS_LIMIT = 100;
export const ZAP_RECEIPT = 9735;
export const ZAP_REQUEST = 9734;
export const PAGING_MARKER = 10000113;
/** A hundred receipts with their profiles fit well within this. */
export const ZAPS_LIMITS = { timeoutMs: 10_000, maxBytes: 4_000_000 } as const;

export const ZAPS_FAILED_TEXT = "Failed to load zaps";
export const ZAPS_NOT_ARRAY_TEXT = "Zap response was not an array";

export class ZapsFailed extends Data.TaggedError("ZapsFailed")<{
  readonly message: string;
  readonly notArray: boolean;
  readonly cause?: unknown;
}> {}

export interface ZapPage {
  /** Newest first. */
  readonly zaps: readonly Zap[];
  /** Names of the people in them, by hex public key (from their kind 0 in the answer). */
  readonly names: ReadonlyMap<string, string>;
  /** Where the next, older page starts (`until`), or null when there is none. */
  readonly until: number | null;
}

const tag = (e: { tags: readonly (readonly string[])[] }, name: string): string | null =>
  e.tags.find((t) => t[0] === name && typeof t[1] === "string")?.[1] ?? null;

const parse = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};

/** Opens a private zap's request when it is addressed to the owner: who really paid and their comment, else null. */
export type PrivateZapOpener = (request: NostrEvent) => { sender: string; comment: string } | null;

/**
 * A receipt as a zap; null when it is not one the wallet believes (or its amount does not decode). A private
 * zap that `open` opens (one to the owner) shows its real sender and comment; any other stays without sender.
 */
export const zapOf = (receipt: NostrEvent, open?: PrivateZapOpener): Zap | null => {
  if (receipt.kind !== ZAP_RECEIPT) return null;
  const to = tag(receipt, "p");
  const bolt11 = tag(receipt, "bolt11");
  if (!to || !/^[0-9a-f]{64}$/.test(to) || !bolt11) return null;
  const invoice = decodeBolt11(bolt11);
  if (!invoice || invoice.amountMsat === null) return null;
  const description = tag(receipt, "description");
  const request = description ? checkEvent(parse(description)) : null;
  if (!request || request.kind !== ZAP_REQUEST || tag(request, "p") !== to) return null;
  const anon = request.tags.find((t) => t[0] === "anon");
  const kind = anon === undefined ? "public" : anon[1] ? "private" : "anonymous";
  const opened = kind === "private" && open ? open(request) : null;
  return {
    kind,
    from_hexpub: kind === "public" ? request.pubkey : (opened?.sender ?? null),
    to_hexpub: to,
    timestamp: receipt.created_at,
    amount_sats: invoice.amountMsat / 1000n,
    note: kind === "private" ? (opened?.comment.slice(0, 2_000) ?? "") : request.content.slice(0, 2_000),
    event_id: receipt.id,
    content: receipt.content.slice(0, 2_000),
  };
};

const nameOf = (profile: NostrEvent): string | null => {
  const c = parse(profile.content);
  if (typeof c !== "object" || c === null) return null;
  const o = c as Record<string, unknown>;
  for (const k of ["display_name", "displayName", "name"]) {
    const v = o[k];
    if (typeof v === "string" && v.trim() !== "") return [...v.trim()].slice(0, 100).join("");
  }
  return null;
};

/** The zaps in a cache answer (newest first), the names it carries, and the next page's start. */
export const zapsIn = (answer: unknown, open?: PrivateZapOpener): ZapPage => {
  if (!Array.isArray(answer)) throw new ZapsFailed({ message: ZAPS_NOT_ARRAY_TEXT, notArray: true });
  const zaps: Zap[] = [];
  const names = new Map<string, string>();
  const profileAt = new Map<string, number>();
  let until: number | null = null;
  let receipts = 0;
  for (const item of answer.slice(0, 2_000)) {
    // The paging marker's kind is beyond NIP-01's range: it is only a hint where the next page starts.
    const marker = item as { kind?: unknown; content?: unknown } | null;
    if (marker?.kind === PAGING_MARKER && typeof marker.content === "string") {
      const m = parse(marker.content);
      const u = typeof m === "object" && m !== null ? (m as Record<string, unknown>).until : undefined;
      if (typeof u === "number" && Number.isSafeInteger(u) && u > 0) until = u;
      continue;
    }
    const e = checkEvent(item);
    if (!e) continue;
    if (e.kind === ZAP_RECEIPT) {
      receipts++;
      const z = zapOf(e, open);
      if (z) zaps.push(z);
    } else if (e.kind === 0) {
      const name = nameOf(e);
      if (name && (profileAt.get(e.pubkey) ?? -1) < e.created_at) {
        names.set(e.pubkey, name);
        profileAt.set(e.pubkey, e.created_at);
      }
    }
  }
  zaps.sort((a, b) => b.timestamp - a.timestamp || (a.event_id < b.event_id ? -1 : 1));
  const unique = zaps.filter((z, i) => i === 0 || zaps[i - 1]?.event_id !== z.event_id);
  // A full page may have older zaps behind it; the next asks for those before the oldest shown.
  return { zaps: unique, names, until: receipts >= ZAPS_LIMIT && until !== null ? until - 1 : null };
};

/** `zaps_feed` for `pubkeys`, older than `until` when given. */
export const fetchZaps = async (
  fetchFn: FetchFn,
  base: string,
  pubkeys: readonly string[],
  until?: number,
  limits: RequestLimits = ZAPS_LIMITS,
  open?: PrivateZapOpener,
): Promise<ZapPage> => {
  if (pubkeys.length === 0) return { zaps: [], names: new Map(), until: null };
  const http = boundedFetch(fetchFn, limits);
  let answer: unknown;
  try {
    if (base.trim() === "") throw new Error("no cache service");
    const res = await http(base.trim(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        "zaps_feed",
        {
          kinds: [ZAP_RECEIPT, 0, PAGING_MARKER],
          limit: ZAPS_LIMIT,
          pubkeys,
          ...(until !== undefined ? { until } : {}),
        },
      ]),
    });
    if (!res.ok) throw new Error(`status ${res.status}`);
    answer = await res.json();
  } catch (cause) {
    throw new ZapsFailed({ message: ZAPS_FAILED_TEXT, notArray: false, cause });
  }
  return zapsIn(answer, open);
};
