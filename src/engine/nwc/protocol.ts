/**
 * NIP-47 (wallet-connect) as data: the request an app sends, the response and notification the wallet
 * sends back, the info event, the connection URI and an app's authorization request (NWA). Pure: the
 * relay connection is `service.ts`, the decisions are the wallet's (`src/commands/nwc/desk.ts`).
 */
import { Schema } from "effect";
import type { NwcEncryption } from "../../events/types";
import { jsonOrNull } from "../parse/json";

export const INFO_KIND = 13194;
export const REQUEST_KIND = 23194;
export const RESPONSE_KIND = 23195;
/** Notifications encrypted with NIP-04 (older apps) and NIP-44 v2. */
export const NOTIFICATION_KIND_NIP04 = 23196;
export const NOTIFICATION_KIND_NIP44 = 23197;

/** The methods this wallet serves, as the info event lists them. */
export const METHODS = [
  "get_info",
  "get_balance",
  "get_budget",
  "pay_invoice",
  "multi_pay_invoice",
  "pay_keysend",
  "make_invoice",
  "lookup_invoice",
  "list_transactions",
] as const;
export type Method = (typeof METHODS)[number];
export const NOTIFICATIONS = ["payment_received", "payment_sent"] as const;
export type NotificationType = (typeof NOTIFICATIONS)[number];

export const ENCRYPTIONS: readonly NwcEncryption[] = ["nip44_v2", "nip04"];

export type ErrorCode =
  | "RATE_LIMITED"
  | "NOT_IMPLEMENTED"
  | "INSUFFICIENT_BALANCE"
  | "QUOTA_EXCEEDED"
  | "RESTRICTED"
  | "UNAUTHORIZED"
  | "INTERNAL"
  | "PAYMENT_FAILED"
  | "NOT_FOUND"
  | "OTHER";

/** A NIP-47 response: a result, or an error with its code and message. */
export interface Nip47Response {
  readonly result_type: string;
  readonly result?: unknown;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
}

export const success = (method: string, result: unknown): Nip47Response => ({ result_type: method, result });
export const failure = (method: string, code: ErrorCode, message: string): Nip47Response => ({
  result_type: method,
  error: { code, message },
});

/** A NIP-47 transaction (lookup_invoice, list_transactions, make_invoice, notifications). Amounts in msat. */
export interface Nip47Transaction {
  readonly type: "incoming" | "outgoing";
  readonly state: "pending" | "settled" | "failed" | "expired";
  readonly invoice: string;
  readonly description: string;
  readonly description_hash: string;
  readonly preimage: string;
  readonly payment_hash: string;
  readonly amount: number;
  readonly fees_paid: number;
  readonly created_at: number;
  readonly expires_at: number | null;
  readonly settled_at: number | null;
  readonly metadata: Record<string, unknown>;
}

/** The decrypted content of a request: a method and its parameters (checked per method by the wallet). */
export const RequestContent = Schema.Struct({
  method: Schema.String,
  params: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
});
export type RequestContent = typeof RequestContent.Type;

const decodeContent = Schema.decodeUnknownOption(RequestContent);

/** Reads a request's decrypted JSON; null when it is not a NIP-47 request. */
export const parseRequestContent = (json: string): RequestContent | null => {
  const o = decodeContent(jsonOrNull(json));
  return o._tag === "Some" ? o.value : null;
};

/** Millisats as a JSON number are exact up to 2^53 msat (90,000 BTC): more is refused. */
export const msatParam = (x: unknown): bigint | null => {
  if (typeof x === "number" && Number.isSafeInteger(x) && x >= 0) return BigInt(x);
  return null;
};

export const PayInvoiceParams = Schema.Struct({
  invoice: Schema.String,
  amount: Schema.optional(Schema.Number),
  id: Schema.optional(Schema.String),
});
export const MultiPayInvoiceParams = Schema.Struct({ invoices: Schema.Array(PayInvoiceParams) });
export const PayKeysendParams = Schema.Struct({
  pubkey: Schema.String,
  amount: Schema.Number,
  preimage: Schema.optional(Schema.String),
});
export const MakeInvoiceParams = Schema.Struct({
  amount: Schema.Number,
  description: Schema.optional(Schema.String),
  description_hash: Schema.optional(Schema.String),
  expiry: Schema.optional(Schema.Number),
});
export const LookupInvoiceParams = Schema.Struct({
  payment_hash: Schema.optional(Schema.String),
  invoice: Schema.optional(Schema.String),
});
export const ListTransactionsParams = Schema.Struct({
  from: Schema.optional(Schema.Number),
  until: Schema.optional(Schema.Number),
  limit: Schema.optional(Schema.Number),
  offset: Schema.optional(Schema.Number),
  unpaid: Schema.optional(Schema.Boolean),
  type: Schema.optional(Schema.Literals(["incoming", "outgoing"])),
});

/** Decodes a method's parameters; null when they do not fit. */
export const paramsOf = <S extends Schema.Decoder<unknown>>(schema: S, params: unknown): S["Type"] | null => {
  const o = Schema.decodeUnknownOption(schema)(params ?? {});
  return o._tag === "Some" ? (o.value as S["Type"]) : null;
};

/** The tag of an event, or null. */
export const tagOf = (tags: readonly (readonly string[])[], name: string): string | null =>
  tags.find((t) => t[0] === name)?.[1] ?? null;

/** The encryption a request was sent with: `nip44_v2` when it says so, NIP-04 for older apps. */
export const encryptionOf = (tags: readonly (readonly string[])[]): NwcEncryption =>
  tagOf(tags, "encryption") === "nip44_v2" ? "nip44_v2" : "nip04";

/** The request's NIP-40 expiration (unix seconds), or null when it sets none or an unreadable one. */
export const expirationOf = (tags: readonly (readonly string[])[]): number | null => {
  const v = tagOf(tags, "expiration");
  if (v === null || !/^\d{1,12}$/.test(v)) return null;
  return Number(v);
};

/** The info event's content and tags: the methods served, the encryptions and the notifications. */
export const infoEvent = (appPubkey: string | null) => ({
  kind: INFO_KIND,
  content: METHODS.join(" "),
  tags: [
    ["encryption", ENCRYPTIONS.join(" ")],
    ["notifications", NOTIFICATIONS.join(" ")],
    // An app that asked for the connection (NWA) finds the wallet's key by this tag.
    ...(appPubkey ? [["p", appPubkey]] : []),
  ],
});

/** `nostr+walletconnect://<wallet service pubkey>?relay=…&secret=…`, what the owner gives an app. */
export const connectionUri = (servicePubkey: string, relay: string, clientSecretHex: string): string =>
  `nostr+walletconnect://${servicePubkey}?relay=${encodeURIComponent(relay)}&secret=${clientSecretHex}`;

/** Budget renewal names of authorization requests, to the wallet's period codes (Day, Week, Month, Year). */
const RENEWAL: Record<string, 0 | 1 | 2 | 3> = { daily: 0, weekly: 1, monthly: 2, yearly: 3 };

/** What an app's authorization request (`nostr+walletauth://`) asks for. */
export interface WalletAuthRequest {
  readonly appPubkey: string;
  readonly relays: readonly string[];
  readonly name: string | null;
  readonly methods: readonly string[];
  /** The fixed budget the app asks for, in sats, with its period; null: the owner chooses. */
  readonly budget: { readonly sats: bigint; readonly period: 0 | 1 | 2 | 3 } | null;
}

const NWA = /^nostr\+walletauth(?:\+[a-z0-9-]+)?:(?:\/\/)?([0-9a-f]{64})\/?\?(.*)$/i;

/** Reads an authorization request (the Alby form, and the older one with `required_commands`). */
export const parseWalletAuth = (text: string): WalletAuthRequest | null => {
  const m = NWA.exec(text.trim());
  if (!m) return null;
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(m[2]);
  } catch {
    return null;
  }
  const relays = q.getAll("relay").filter((r) => /^wss?:\/\/[^\s]+$/i.test(r));
  if (relays.length === 0) return null;
  const methods = (q.get("request_methods") ?? q.get("required_commands") ?? "")
    .split(/[ ,]+/)
    .filter((x) => x !== "");
  const max = q.get("max_amount");
  const sats = max !== null && /^\d{1,15}$/.test(max) ? BigInt(max) : null;
  const renewal = q.get("budget_renewal") ?? "daily";
  const period = RENEWAL[renewal] ?? 0;
  return {
    appPubkey: (m[1] ?? "").toLowerCase(),
    relays,
    name: q.get("name"),
    methods,
    budget: sats !== null && sats > 0n ? { sats, period } : null,
  };
};
