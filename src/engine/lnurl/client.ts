/**
 * The wallet's side of LNURL: reading a service's parameters (LUD-06 pay, LUD-16 lightning address,
 * LUD-03 withdraw), asking a pay service for an invoice and checking it (amount and description hash,
 * LUD-06 steps 6-7, comment LUD-12, success actions LUD-09 and LUD-10), handing a withdraw service an invoice, and the
 * LUD-04 login call. The transport is injected; every failure is an LnurlError with the words to show.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import type { HDKey } from "@scure/bip32";
import { hex, utf8 } from "@scure/base";
import { Data } from "effect";
import type { Network } from "../../events/types";
import { decodeBolt11 } from "../parse/bolt11";
import { networkAccepted } from "../parse/parse";
import { usesExpectedScheme } from "../parse/hosts";
import { decodeLnurl } from "../parse/lnurl";
import { actionOf, type AuthAction, challengeOf, loginUrl } from "./auth";
import { type AesSuccessAction, isAesActionReadable } from "./success-action";
import { msatToSatsUp } from "../amount";
import { jsonOrNull } from "../parse/json";

/**
 * Why an LNURL exchange failed. `reason` is what the service said (LUD-06 `{"status":"ERROR"}`), when it
 * said something; `key` names the catalogue text a screen shows.
 */
export class LnurlError extends Data.TaggedError("LnurlError")<{
  readonly message: string;
  readonly key?: string;
  readonly reason?: string;
}> {}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** An LNURL service's answer to the first call. Amounts are msat as bigints. */
export type LnurlParams =
  | {
      readonly tag: "payRequest";
      readonly url: string;
      readonly domain: string;
      readonly callback: string;
      readonly minSendable: bigint;
      readonly maxSendable: bigint;
      /** The raw metadata string; its sha256 is the invoice's description hash. */
      readonly metadata: string;
      /** The `text/plain` entry. */
      readonly description: string;
      readonly commentAllowed: number;
      /** NIP-57: the service takes zap requests and signs receipts with this key (hex); null when it does not. */
      readonly nostrPubkey: string | null;
    }
  | {
      readonly tag: "withdrawRequest";
      readonly url: string;
      readonly domain: string;
      readonly callback: string;
      readonly k1: string;
      readonly defaultDescription: string;
      readonly minWithdrawable: bigint;
      readonly maxWithdrawable: bigint;
    }
  | {
      readonly tag: "login";
      readonly url: string;
      readonly domain: string;
      readonly action: AuthAction | null;
    };

/**
 * Success actions this wallet shows: LUD-09 `message` and `url`, LUD-10 `aes` (opened with the preimage
 * once paid); any other tag stops the payment before it is paid.
 */
export type SuccessAction =
  | { readonly tag: "message"; readonly message: string }
  | { readonly tag: "url"; readonly description: string; readonly url: string }
  | AesSuccessAction;

const fail = (message: string, key?: string, reason?: string): LnurlError =>
  new LnurlError({
    message,
    ...(key === undefined ? {} : { key }),
    ...(reason === undefined ? {} : { reason }),
  });

const parseUrl = (text: string): URL => {
  const decoded = decodeLnurl(text.trim().replace(/^lightning:/i, ""));
  if (decoded !== null) return new URL(decoded.url);
  try {
    const url = new URL(text);
    if (usesExpectedScheme(url)) return url;
  } catch {
    // falls through to the error below
  }
  throw fail("The service gave an address the wallet cannot call.", "lnurl.error_bad_answer");
};

/** The longest text of a service's the wallet shows (descriptions, messages): the service's words, cut. */
export const SERVICE_TEXT_MAX = 300;

const cut = (text: string, max = SERVICE_TEXT_MAX): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/**
 * GETs `url` and reads its JSON object, with the URL it came from after any redirects; a LUD-06 error
 * answer becomes an LnurlError with its reason.
 */
const getJson = async (fetchFn: Fetch, url: URL): Promise<{ json: Record<string, unknown>; from: URL }> => {
  let body: unknown;
  let from = url;
  try {
    const response = await fetchFn(url.toString(), { headers: { accept: "application/json" } });
    if (response.url) from = new URL(response.url);
    body = await response.json().catch(() => null);
    if (!response.ok && !(body && typeof body === "object" && "reason" in body))
      throw fail(`The service answered ${response.status}.`, "lnurl.error_unreachable");
  } catch (e) {
    if (e instanceof LnurlError) throw e;
    throw fail("The service could not be reached.", "lnurl.error_unreachable");
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw fail("The service's answer could not be read.", "lnurl.error_bad_answer");
  const json = body as Record<string, unknown>;
  if (typeof json.status === "string" && json.status.toUpperCase() === "ERROR") {
    const reason = typeof json.reason === "string" ? cut(json.reason) : "";
    throw fail(reason || "The service refused.", "lnurl.error_service", reason);
  }
  return { json, from };
};

/** A msat amount off the wire: a non-negative whole number (JSON number or digit string). */
const msat = (v: unknown): bigint | null => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === "string" && /^\d{1,20}$/.test(v)) return BigInt(v);
  return null;
};

/** The `text/plain` entry of LUD-06 metadata, or null when the metadata is not a valid array of arrays. */
export const metadataText = (metadata: string): string | null => {
  const entries = jsonOrNull(metadata);
  if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && typeof e[0] === "string"))
    return null;
  const plain = (entries as unknown[][]).find((e) => e[0] === "text/plain");
  return plain && typeof plain[1] === "string" ? cut(plain[1]) : null;
};

const readPay = (url: URL, json: Record<string, unknown>): LnurlParams => {
  const min = msat(json.minSendable);
  const max = msat(json.maxSendable);
  const metadata = typeof json.metadata === "string" ? json.metadata : null;
  const description = metadata === null ? null : metadataText(metadata);
  if (typeof json.callback !== "string" || min === null || max === null || min < 1n || min > max)
    throw fail("The service's payment limits could not be read.", "lnurl.error_bad_answer");
  if (metadata === null || description === null)
    throw fail("The service's payment description could not be read.", "lnurl.error_bad_answer");
  const comment = typeof json.commentAllowed === "number" ? Math.max(0, Math.floor(json.commentAllowed)) : 0;
  return {
    tag: "payRequest",
    url: url.toString(),
    domain: url.hostname,
    callback: parseUrl(json.callback).toString(),
    minSendable: min,
    maxSendable: max,
    metadata,
    description,
    commentAllowed: comment,
    nostrPubkey:
      json.allowsNostr === true &&
      typeof json.nostrPubkey === "string" &&
      /^[0-9a-f]{64}$/.test(json.nostrPubkey)
        ? json.nostrPubkey
        : null,
  };
};

const readWithdraw = (url: URL, json: Record<string, unknown>): LnurlParams => {
  const min = msat(json.minWithdrawable);
  const max = msat(json.maxWithdrawable);
  if (
    typeof json.callback !== "string" ||
    typeof json.k1 !== "string" ||
    min === null ||
    max === null ||
    min > max
  )
    throw fail("The service's withdraw limits could not be read.", "lnurl.error_bad_answer");
  return {
    tag: "withdrawRequest",
    url: url.toString(),
    domain: url.hostname,
    callback: parseUrl(json.callback).toString(),
    k1: json.k1,
    defaultDescription: typeof json.defaultDescription === "string" ? cut(json.defaultDescription) : "",
    minWithdrawable: min,
    maxWithdrawable: max,
  };
};

/**
 * The first call (LUD-06 step 2, LUD-03 step 2). A login LNURL (`tag=login`) is not called: it is read
 * from the URL itself (LUD-04 step 1).
 */
export const fetchParams = async (fetchFn: Fetch, lnurl: string): Promise<LnurlParams> => {
  const url = parseUrl(lnurl);
  if (url.searchParams.get("tag") === "login") {
    if (challengeOf(url) === null)
      throw fail("The login request has no valid challenge.", "lnurl.error_bad_answer");
    return { tag: "login", url: url.toString(), domain: url.hostname, action: actionOf(url) };
  }
  // The host shown is the one that answered, after any redirects.
  const { json, from } = await getJson(fetchFn, url);
  if (json.tag === "payRequest") return readPay(from, json);
  if (json.tag === "withdrawRequest") return readWithdraw(from, json);
  throw fail("This kind of LNURL is not supported.", "lnurl.error_unsupported");
};

/**
 * What identifies an offer as the owner saw it: the host that answered and, for a pay service, its
 * metadata (which the invoice commits to); for a withdraw, its challenge. Two reads that differ here are
 * two different offers.
 */
export const fingerprintOf = (p: LnurlParams): string =>
  p.tag === "payRequest"
    ? `${p.domain} ${hex.encode(sha256(utf8.decode(p.metadata)))}`
    : p.tag === "withdrawRequest"
      ? `${p.domain} ${p.k1}`
      : p.domain;

/** A pay service fixes the amount when its minimum and maximum are equal (spec 1 §5). */
export const fixedPayAmountSats = (p: { minSendable: bigint; maxSendable: bigint }): bigint | null =>
  p.minSendable === p.maxSendable ? p.minSendable / 1000n : null;

/** The whole-sat range a pay service accepts: min rounded up, max rounded down. */
export const payRangeSats = (p: { minSendable: bigint; maxSendable: bigint }) => ({
  min: msatToSatsUp(p.minSendable),
  max: p.maxSendable / 1000n,
});

export const withdrawRangeSats = (p: { minWithdrawable: bigint; maxWithdrawable: bigint }) => ({
  min: msatToSatsUp(p.minWithdrawable),
  max: p.maxWithdrawable / 1000n,
});

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * LUD-09: a success action's URL opens only when it is https (http on loopback, for a local regtest
 * service) and on the callback's own domain; any other is shown as text, never as a link.
 */
const openableUrl = (text: string, callback: URL): boolean => {
  try {
    const url = new URL(text);
    const secure = url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
    return secure && url.hostname === callback.hostname;
  } catch {
    return false;
  }
};

const readSuccessAction = (v: unknown, callback: URL): SuccessAction | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== "object")
    throw fail("The service's success action could not be read.", "lnurl.error_bad_answer");
  const a = v as Record<string, unknown>;
  if (a.tag === "message" && typeof a.message === "string")
    return { tag: "message", message: cut(a.message) };
  if (a.tag === "url" && typeof a.url === "string") {
    const description = typeof a.description === "string" ? cut(a.description) : "";
    if (!openableUrl(a.url, callback))
      return { tag: "message", message: cut(description ? `${description} ${a.url}` : a.url) };
    return { tag: "url", url: a.url, description };
  }
  if (a.tag === "aes" && typeof a.ciphertext === "string" && typeof a.iv === "string") {
    if (!isAesActionReadable(a.ciphertext, a.iv))
      throw fail("The service's success action could not be read.", "lnurl.error_bad_answer");
    return {
      tag: "aes",
      ciphertext: a.ciphertext,
      iv: a.iv,
      description: typeof a.description === "string" ? cut(a.description) : "",
    };
  }
  throw fail("The service's success action is not supported.", "lnurl.error_unsupported");
};

export interface PayInvoiceAnswer {
  readonly bolt11: string;
  readonly successAction: SuccessAction | null;
}

/**
 * The second call (LUD-06 step 4) for `amountSats`, with a comment when the service takes one; the
 * invoice it returns must be for exactly that amount, on the wallet's network, and commit to the
 * metadata by its description hash, else nothing is paid.
 */
export const requestPayInvoice = async (
  fetchFn: Fetch,
  params: Extract<LnurlParams, { tag: "payRequest" }>,
  amountSats: bigint,
  comment: string,
  network: Network,
  /** NIP-57: a signed zap request (kind 9734, JSON); the invoice then commits to it instead of the metadata. */
  zapRequest?: string,
): Promise<PayInvoiceAnswer> => {
  const amountMsat = amountSats * 1000n;
  if (amountMsat < params.minSendable || amountMsat > params.maxSendable)
    throw fail("The amount is outside what the service accepts.", "lnurl.error_amount_range");
  const url = new URL(params.callback);
  url.searchParams.set("amount", amountMsat.toString());
  const text = zapRequest === undefined ? comment.trim() : "";
  if (zapRequest !== undefined) url.searchParams.set("nostr", zapRequest);
  if (text !== "") {
    if (params.commentAllowed === 0 || text.length > params.commentAllowed)
      throw fail("The comment is longer than the service accepts.", "lnurl.error_comment");
    url.searchParams.set("comment", text);
  }
  const { json } = await getJson(fetchFn, url);
  if (typeof json.pr !== "string") throw fail("The service sent no invoice.", "lnurl.error_bad_answer");
  const invoice = decodeBolt11(json.pr.trim().replace(/^lightning:/i, ""));
  if (invoice === null) throw fail("The service's invoice could not be read.", "lnurl.error_bad_invoice");
  if (!networkAccepted(invoice.network, network))
    throw fail(`Destination is for ${invoice.network} but you're on ${network}`, "lnurl.error_bad_invoice");
  if (invoice.amountMsat !== amountMsat)
    throw fail("The service's invoice is not for the amount asked.", "lnurl.error_bad_invoice");
  if (
    invoice.descriptionHash?.toLowerCase() !== hex.encode(sha256(utf8.decode(zapRequest ?? params.metadata)))
  )
    throw fail("The service's invoice does not match its description.", "lnurl.error_bad_invoice");
  return { bolt11: invoice.invoice, successAction: readSuccessAction(json.successAction, url) };
};

/** LUD-03 step 5: hands the service an invoice to pay; it pays it afterwards. */
export const submitWithdraw = async (
  fetchFn: Fetch,
  params: Extract<LnurlParams, { tag: "withdrawRequest" }>,
  bolt11: string,
): Promise<void> => {
  const url = new URL(params.callback);
  url.searchParams.set("k1", params.k1);
  url.searchParams.set("pr", bolt11);
  await getJson(fetchFn, url);
};

/** LUD-04 step 3: signs the challenge with the domain's linking key and calls the service. */
export const login = async (
  fetchFn: Fetch,
  lnurl: string,
  root: HDKey,
): Promise<{ domain: string; key: string }> => {
  const url = parseUrl(lnurl);
  const signed = loginUrl(url, root);
  if (signed === null) throw fail("The login request has no valid challenge.", "lnurl.error_bad_answer");
  await getJson(fetchFn, signed);
  return { domain: url.hostname, key: signed.searchParams.get("key") ?? "" };
};
