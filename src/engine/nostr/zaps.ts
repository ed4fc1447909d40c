/**
 * The friends tab's zaps (spec 1 home, friends): zap receipts (NIP-57, kind 9735) among the people the owner
 * follows, from the social-profile cache service's `zaps_feed` (kinds 9735, 0 and the paging marker
 * 10000113, at most 100, paged with `until`). The cache is input like any server: the answer must be an
 * array ('Zap response was not an array'), read within a deadline and a byte cap ('Failed to load zaps'
 * otherwise). A receipt is believed only as NIP-57 appendix F says: signed by the `nostrPubkey` of the
 * recipient's LNURL pay server (read from the lud16/lud06 of the recipient's signed profile, `ZapSigners`), its
 * zap request (the `description` tag) a signed kind 9734 naming the same recipient, its bolt11 committing to
 * that request by description hash, for the request's `amount` when it names one, and for no more than there
 * are bitcoin. Anything else is not shown.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { Data } from "effect";
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import { decodeBolt11 } from "../parse/bolt11";
import type { Zap } from "../../projections/zaps";
import { checkEvent, type NostrEvent } from "./event";
import { payAddressOf, ZapSigners } from "./zap-signers";
import { jsonOrNull } from "../parse/json";

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

/** No zap is for more than all the bitcoin there will ever be (msat). */
export const MAX_ZAP_MSAT = 21_000_000n * 100_000_000n * 1_000n;

/** The recipient's LNURL server's key (hex) by recipient (hex): the only key whose receipts are believed. */
export type ZapSignerOf = ReadonlyMap<string, string>;

/** Opens a private zap's request when it is addressed to the owner: who really paid and their comment, else null. */
export type PrivateZapOpener = (request: NostrEvent) => { sender: string; comment: string } | null;

/**
 * A receipt as a zap; null when it is not one the wallet believes (see above). A private zap that `open` opens
 * (one to the owner) shows its real sender and comment; any other stays without sender.
 */
export const zapOf = (receipt: NostrEvent, signers: ZapSignerOf, open?: PrivateZapOpener): Zap | null => {
  if (receipt.kind !== ZAP_RECEIPT) return null;
  const to = tag(receipt, "p");
  const bolt11 = tag(receipt, "bolt11");
  if (!to || !/^[0-9a-f]{64}$/.test(to) || !bolt11) return null;
  if (signers.get(to) !== receipt.pubkey) return null;
  const invoice = decodeBolt11(bolt11);
  if (!invoice || invoice.amountMsat === null || invoice.amountMsat > MAX_ZAP_MSAT) return null;
  const description = tag(receipt, "description");
  if (
    description === null ||
    invoice.descriptionHash?.toLowerCase() !== hex.encode(sha256(utf8.decode(description)))
  )
    return null;
  const request = checkEvent(jsonOrNull(description));
  if (!request || request.kind !== ZAP_REQUEST) return null;
  const recipients = request.tags.filter((t) => t[0] === "p");
  if (recipients.length !== 1 || recipients[0]?.[1] !== to) return null;
  const asked = request.tags.find((t) => t[0] === "amount");
  if (
    asked !== undefined &&
    !(/^\d{1,19}$/.test(asked[1] ?? "") && BigInt(asked[1] ?? "") === invoice.amountMsat)
  )
    return null;
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
  const c = jsonOrNull(profile.content);
  if (typeof c !== "object" || c === null) return null;
  const o = c as Record<string, unknown>;
  for (const k of ["display_name", "displayName", "name"]) {
    const v = o[k];
    if (typeof v === "string" && v.trim() !== "") return [...v.trim()].slice(0, 100).join("");
  }
  return null;
};

/** The most items of an answer read, and of recipients whose pay server is asked for its key. */
const MAX_ITEMS = 2_000;
export const MAX_RECIPIENTS = 200;

/**
 * Where each recipient of a receipt in a cache answer is paid: the lud16/lud06 of their newest signed profile
 * in the answer (a cache cannot forge one). Recipients without a profile there are left out (not shown).
 */
export const payAddressesIn = (answer: unknown): Map<string, string> => {
  if (!Array.isArray(answer)) return new Map();
  const items = answer.slice(0, MAX_ITEMS) as { kind?: unknown; pubkey?: unknown; tags?: unknown }[];
  // Who receives: read from the receipts as served (each receipt is checked when it is read as a zap).
  const recipients = new Set<string>();
  for (const item of items) {
    if (item?.kind !== ZAP_RECEIPT || !Array.isArray(item.tags)) continue;
    const p = (item.tags as unknown[]).find((t) => Array.isArray(t) && t[0] === "p") as unknown[] | undefined;
    if (typeof p?.[1] === "string" && /^[0-9a-f]{64}$/.test(p[1]) && recipients.size < MAX_RECIPIENTS)
      recipients.add(p[1]);
  }
  // Their profiles, each checked (signature included): only a recipient's own signed profile says where they are paid.
  const newest = new Map<string, NostrEvent>();
  for (const item of items) {
    if (item?.kind !== 0 || typeof item.pubkey !== "string" || !recipients.has(item.pubkey)) continue;
    const e = checkEvent(item);
    if (e && (newest.get(e.pubkey)?.created_at ?? -1) < e.created_at) newest.set(e.pubkey, e);
  }
  const out = new Map<string, string>();
  for (const [to, profile] of newest) {
    const pay = payAddressOf(profile.content);
    if (pay !== null) out.set(to, pay);
  }
  return out;
};

/**
 * The zaps in a cache answer (newest first), the names it carries, and the next page's start; only receipts
 * signed by their recipient's pay server's key (`signers`) and matching their request are zaps.
 */
export const zapsIn = (answer: unknown, signers: ZapSignerOf, open?: PrivateZapOpener): ZapPage => {
  if (!Array.isArray(answer)) throw new ZapsFailed({ message: ZAPS_NOT_ARRAY_TEXT, notArray: true });
  const zaps: Zap[] = [];
  const names = new Map<string, string>();
  const profileAt = new Map<string, number>();
  let until: number | null = null;
  let receipts = 0;
  for (const item of answer.slice(0, MAX_ITEMS)) {
    // The paging marker's kind is beyond NIP-01's range: it is only a hint where the next page starts.
    const marker = item as { kind?: unknown; content?: unknown } | null;
    if (marker?.kind === PAGING_MARKER && typeof marker.content === "string") {
      const m = jsonOrNull(marker.content);
      const u = typeof m === "object" && m !== null ? (m as Record<string, unknown>).until : undefined;
      if (typeof u === "number" && Number.isSafeInteger(u) && u > 0) until = u;
      continue;
    }
    const e = checkEvent(item);
    if (!e) continue;
    if (e.kind === ZAP_RECEIPT) {
      receipts++;
      const z = zapOf(e, signers, open);
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

/**
 * `zaps_feed` for `pubkeys`, older than `until` when given; each recipient's pay server is asked (through
 * `signers`, which remembers) which key signs their receipts.
 */
export const fetchZaps = async (
  fetchFn: FetchFn,
  base: string,
  pubkeys: readonly string[],
  until?: number,
  limits: RequestLimits = ZAPS_LIMITS,
  open?: PrivateZapOpener,
  signers: ZapSigners = new ZapSigners(fetchFn),
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
  if (!Array.isArray(answer)) throw new ZapsFailed({ message: ZAPS_NOT_ARRAY_TEXT, notArray: true });
  return zapsIn(answer, await signers.of(payAddressesIn(answer)), open);
};
