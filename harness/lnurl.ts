/**
 * A local LNURL service: LNURL-pay and lightning addresses (LUD-06, LUD-16, comments LUD-12, success
 * actions LUD-09, secrets sealed with the payment's preimage LUD-10) and LNURL-withdraw (LUD-03). Invoices are made and paid by the functions it is given
 * (the world's lightning node, or a test's), so the protocol is the same whoever holds the channels.
 *
 *   GET /.well-known/lnurlp/<name>, /lnurlp/<name>     → payRequest
 *   GET /lnurlp/<name>/callback?amount=<msat>&comment= → {pr, routes, successAction?}
 *   GET /lnurlw/<id>                                   → withdrawRequest
 *   GET /lnurlw/<id>/callback?k1=…&pr=…                → {"status":"OK"}, then pays `pr`
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64, utf8 } from "@scure/base";
import { hex } from "@scure/base";
import { makeZapReceipt, validateZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, getPublicKey, type VerifiedEvent } from "nostr-tools/pure";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { encodeLnurl } from "../src/engine/parse/lnurl";
import { signInvoice } from "./bolt11-sign";
import { type JsonReply, lnurlError, serveJson } from "../services/http-json";
import type { Hostility } from "./hostile";
import { HttpError, parseJson, type RouteTable, toSats } from "./server";

/**
 * NIP-57 zaps: pay offers say `allowsNostr` with the service's `nostrPubkey`, take a signed zap request in
 * the callback's `nostr` parameter (checked with nostr-tools' `validateZapRequest`; the invoice commits to
 * it by its description hash), and once that invoice is paid publish a zap receipt (kind 9735).
 */
export interface ZapDeps {
  readonly secret: Uint8Array;
  /** Resolves once the invoice with `paymentHash` is paid (rejects when it never is). */
  readonly whenPaid: (paymentHash: string) => Promise<void>;
  readonly publish: (receipt: VerifiedEvent) => void;
}

export interface LnurlDeps {
  readonly createInvoice: (msat: bigint, descriptionHash: Uint8Array) => Promise<string>;
  readonly zaps?: ZapDeps;
  readonly payInvoice: (bolt11: string) => Promise<void>;
  /** The preimage of an invoice `createInvoice` made (for LUD-10 secrets). */
  readonly preimageOf?: (bolt11: string) => Uint8Array | null;
}

export type SuccessAction =
  | { readonly tag: "message"; readonly message: string }
  | { readonly tag: "url"; readonly description: string; readonly url: string };

export interface PayOffer {
  readonly name: string;
  readonly minSendable: bigint;
  readonly maxSendable: bigint;
  readonly description: string;
  readonly commentAllowed?: number;
  readonly successAction?: SuccessAction;
  /** A LUD-10 secret: shown to the payer under `description`, sealed with each invoice's preimage. */
  readonly secret?: { readonly description: string; readonly text: string };
}

/** LUD-10: AES-256-CBC with PKCS#7 padding, the key the payment's preimage, a fresh 16-byte iv. */
export const sealSecret = (preimage: Uint8Array, description: string, text: string) => {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", preimage, iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return { tag: "aes", description, ciphertext: base64.encode(sealed), iv: base64.encode(iv) } as const;
};

export interface WithdrawOffer {
  readonly minWithdrawable: bigint;
  readonly maxWithdrawable: bigint;
  readonly defaultDescription?: string;
}

export interface LnurlService {
  readonly base: string;
  /** Adds (or replaces) a pay offer; answers its URL, its bech32 LNURL and its lightning address. */
  readonly addPay: (offer: PayOffer) => { url: string; lnurl: string; address: string };
  /** Adds a single-use withdraw offer; answers its URL and bech32 LNURL. */
  readonly addWithdraw: (offer: WithdrawOffer) => { id: string; url: string; lnurl: string };
  /** Payments asked for, in order: the offer, amount and comment of each invoice handed out. */
  readonly invoices: { name: string; msat: bigint; comment: string | null; bolt11: string }[];
  /** Zap receipts published, in order. */
  readonly receipts: VerifiedEvent[];
  /** Withdrawals paid or failed, in order. */
  readonly withdrawals: { id: string; bolt11: string; ok: boolean; error?: string }[];
  /** Resolves once every withdrawal payment started so far has finished. */
  readonly settled: () => Promise<void>;
  readonly handle: (url: URL) => Promise<JsonReply>;
  readonly stop: () => Promise<void>;
}

/** The metadata string of an offer (LUD-06, with the LUD-16 identifier). */
export const metadataOf = (offer: PayOffer, address: string): string =>
  JSON.stringify([
    ["text/plain", offer.description],
    ["text/identifier", address],
  ]);

const whole = (v: string | null): bigint | null => (v !== null && /^\d{1,20}$/.test(v) ? BigInt(v) : null);

export const startLnurlService = async (
  deps: LnurlDeps,
  /** `hostility`: LNURL modes, scoped by a pay offer's name or a withdraw link's id (see `hostile.ts`). */
  opts: { host?: string; port?: number; hostility?: Hostility } = {},
): Promise<LnurlService> => {
  const modeOf = (scope: string) => opts.hostility?.of("lnurl", scope)?.mode ?? null;
  const reads = new Map<string, number>();
  const pays = new Map<string, PayOffer>();
  const withdraws = new Map<string, WithdrawOffer & { k1: string; used: boolean }>();
  const invoices: LnurlService["invoices"] = [];
  const withdrawals: LnurlService["withdrawals"] = [];
  const receipts: VerifiedEvent[] = [];
  const running = new Set<Promise<void>>();
  let base = "";
  const host = () => new URL(base).host;

  const payParams = (offer: PayOffer) => {
    // A service that shows one offer and then another: every read after the first says something else.
    const read = (reads.get(offer.name) ?? 0) + 1;
    reads.set(offer.name, read);
    const shown =
      modeOf(offer.name) === "second-read-differs" && read > 1
        ? { ...offer, description: `${offer.description} (now 10x the price)` }
        : offer;
    return {
      tag: "payRequest",
      callback: `${base}/lnurlp/${offer.name}/callback`,
      minSendable: Number(offer.minSendable),
      maxSendable: Number(offer.maxSendable),
      metadata: metadataOf(shown, `${offer.name}@${host()}`),
      commentAllowed: offer.commentAllowed ?? 0,
      ...(deps.zaps ? { allowsNostr: true, nostrPubkey: getPublicKey(deps.zaps.secret) } : {}),
    };
  };

  /** After the zap's invoice is paid, its receipt goes to the relay (NIP-57 appendix E). */
  const receiptWhenPaid = (zaps: ZapDeps, zapRequest: string, bolt11: string) => {
    const invoice = decodeBolt11(bolt11);
    if (!invoice) return;
    void zaps
      .whenPaid(invoice.paymentHash)
      .then(() => {
        const preimage = deps.preimageOf?.(bolt11);
        const receipt = finalizeEvent(
          makeZapReceipt({
            zapRequest,
            bolt11,
            paidAt: new Date(),
            ...(preimage ? { preimage: hex.encode(preimage) } : {}),
          }),
          zaps.secret,
        );
        receipts.push(receipt);
        zaps.publish(receipt);
      })
      // Never paid: no receipt.
      .catch(() => undefined);
  };

  const payCallback = async (offer: PayOffer, q: URLSearchParams): Promise<JsonReply> => {
    const amount = whole(q.get("amount"));
    if (amount === null) return lnurlError("amount is required, in millisatoshis");
    if (amount < offer.minSendable || amount > offer.maxSendable)
      return lnurlError(`Amount must be between ${offer.minSendable} and ${offer.maxSendable} millisatoshis`);
    const comment = q.get("comment");
    if (comment !== null && comment.length > (offer.commentAllowed ?? 0))
      return lnurlError(`Comments may be at most ${offer.commentAllowed ?? 0} characters`);
    const zapRequest = deps.zaps ? q.get("nostr") : null;
    if (zapRequest !== null) {
      const problem = validateZapRequest(zapRequest);
      if (problem) return lnurlError(`Invalid zap request: ${problem}`);
      const asked = (JSON.parse(zapRequest) as { tags: string[][] }).tags.find((t) => t[0] === "amount")?.[1];
      if (asked !== undefined && asked !== amount.toString())
        return lnurlError("The zap request's amount is not the amount asked for");
    }
    const hash = sha256(utf8.decode(zapRequest ?? metadataOf(offer, `${offer.name}@${host()}`)));
    const mode = modeOf(offer.name);
    // A service that asks fifty times what it showed.
    const bolt11 = await deps.createInvoice(mode === "mismatched-amount" ? amount * 50n : amount, hash);
    invoices.push({ name: offer.name, msat: amount, comment, bolt11 });
    if (zapRequest !== null && deps.zaps) receiptWhenPaid(deps.zaps, zapRequest, bolt11);
    let successAction: unknown =
      mode === "foreign-success-url"
        ? { tag: "url", description: "Your receipt", url: "http://receipts.example/claim?id=1" }
        : offer.successAction;
    if (offer.secret) {
      const preimage = deps.preimageOf?.(bolt11);
      if (!preimage) return lnurlError("This service cannot seal secrets", 500);
      successAction = sealSecret(preimage, offer.secret.description, offer.secret.text);
    }
    return {
      status: 200,
      json: { pr: bolt11, routes: [], ...(successAction ? { successAction } : {}) },
    };
  };

  const withdrawCallback = (id: string, q: URLSearchParams): JsonReply => {
    const offer = withdraws.get(id);
    if (!offer) return lnurlError("Unknown withdraw link", 404);
    if (q.get("k1") !== offer.k1) return lnurlError("Wrong k1");
    if (offer.used) return lnurlError("This withdraw link was already used");
    const bolt11 = q.get("pr") ?? "";
    const invoice = decodeBolt11(bolt11);
    if (invoice === null) return lnurlError("Invalid invoice");
    if (
      invoice.amountMsat === null ||
      invoice.amountMsat < offer.minWithdrawable ||
      invoice.amountMsat > offer.maxWithdrawable
    )
      return lnurlError("The invoice's amount is outside this link's limits");
    offer.used = true;
    // A service that says it paid and never does.
    if (modeOf(id) === "withdraw-ok-unpaid") return { status: 200, json: { status: "OK" } };
    const paying = deps
      .payInvoice(bolt11)
      .then(
        () => void withdrawals.push({ id, bolt11, ok: true }),
        (e: unknown) =>
          void withdrawals.push({ id, bolt11, ok: false, error: e instanceof Error ? e.message : String(e) }),
      )
      .finally(() => running.delete(paying));
    running.add(paying);
    return { status: 200, json: { status: "OK" } };
  };

  const handle = async (url: URL): Promise<JsonReply> => {
    const path = url.pathname;
    let m = /^\/(?:\.well-known\/lnurlp|lnurlp)\/([a-z0-9\-_.+]+)$/.exec(path);
    if (m) {
      const offer = pays.get(m[1]!);
      if (!offer) return lnurlError("Unknown user", 404);
      const mode = modeOf(offer.name);
      if (mode === "never-answers") return new Promise<JsonReply>(() => {});
      if (mode === "huge-answer")
        return { status: 200, json: { ...payParams(offer), padding: "x".repeat(50_000_000) } };
      if (mode === "redirect-other-host" && url.searchParams.get("moved") === null) {
        const elsewhere = new URL(`${path}?moved=1`, base.replace("127.0.0.1", "localhost"));
        return { status: 302, json: null, headers: { location: elsewhere.toString() } };
      }
      return { status: 200, json: payParams(offer) };
    }
    m = /^\/lnurlp\/([a-z0-9\-_.+]+)\/callback$/.exec(path);
    if (m) {
      const offer = pays.get(m[1]!);
      return offer ? payCallback(offer, url.searchParams) : lnurlError("Unknown user", 404);
    }
    m = /^\/lnurlw\/([0-9a-f]+)$/.exec(path);
    if (m) {
      const offer = withdraws.get(m[1]!);
      if (!offer) return lnurlError("Unknown withdraw link", 404);
      if (offer.used) return lnurlError("This withdraw link was already used");
      return {
        status: 200,
        json: {
          tag: "withdrawRequest",
          callback: `${base}/lnurlw/${m[1]}/callback`,
          k1: offer.k1,
          defaultDescription: offer.defaultDescription ?? "",
          minWithdrawable: Number(offer.minWithdrawable),
          maxWithdrawable: Number(offer.maxWithdrawable),
        },
      };
    }
    m = /^\/lnurlw\/([0-9a-f]+)\/callback$/.exec(path);
    if (m) return withdrawCallback(m[1]!, url.searchParams);
    return lnurlError("Not found", 404);
  };

  const http = await serveJson(handle, opts.host, opts.port);
  base = http.base;
  return {
    base,
    addPay: (offer) => {
      pays.set(offer.name, offer);
      const url = `${base}/lnurlp/${offer.name}`;
      return { url, lnurl: encodeLnurl(url), address: `${offer.name}@${host()}` };
    },
    addWithdraw: (offer) => {
      const id = randomBytes(8).toString("hex");
      withdraws.set(id, { ...offer, k1: randomBytes(32).toString("hex"), used: false });
      const url = `${base}/lnurlw/${id}`;
      return { id, url, lnurl: encodeLnurl(url) };
    },
    invoices,
    withdrawals,
    receipts,
    settled: async () => {
      await Promise.all([...running]);
    },
    handle,
    stop: http.stop,
  };
};

/**
 * The service's offers made over the world's HTTP API (for people trying the wallet, and for tests in the
 * browser): `POST /lnurl/pay {name, min_sats, max_sats, description?, comment_allowed?, secret?:
 * {description, text}}` answers the
 * offer's `{url, lnurl, address}`; `POST /lnurl/withdraw {min_sats, max_sats}` answers `{id, url, lnurl}`.
 */
const secretOf = (v: unknown): Pick<PayOffer, "secret"> => {
  if (!v || typeof v !== "object") return {};
  const { description, text } = v as Record<string, unknown>;
  if (typeof description !== "string" || typeof text !== "string" || text === "")
    throw new HttpError(400, "secret needs a description and a text");
  return { secret: { description, text } };
};

export const lnurlRoutes = (service: LnurlService): RouteTable => [
  [
    "POST",
    /^\/lnurl\/pay$/,
    (_m, body) => {
      const b = parseJson(body);
      if (typeof b.name !== "string" || !/^[a-z0-9._-]+$/.test(b.name))
        throw new HttpError(400, "name is required");
      return {
        json: service.addPay({
          name: b.name,
          minSendable: toSats(b.min_sats) * 1000n,
          maxSendable: toSats(b.max_sats) * 1000n,
          description: typeof b.description === "string" ? b.description : `Pay ${b.name}`,
          ...(typeof b.comment_allowed === "number" ? { commentAllowed: b.comment_allowed } : {}),
          ...secretOf(b.secret),
        }),
      };
    },
  ],
  [
    "POST",
    /^\/lnurl\/withdraw$/,
    (_m, body) => {
      const b = parseJson(body);
      return {
        json: service.addWithdraw({
          minWithdrawable: toSats(b.min_sats) * 1000n,
          maxWithdrawable: toSats(b.max_sats) * 1000n,
        }),
      };
    },
  ],
];

/**
 * The LNURL service alone with zaps on, for tests: receipts signed with `secret` and given to `publish`; its
 * invoices are signed here and never really paid: a test calls `paid.get(paymentHash)?.()` to settle one.
 */
export const startZapService = (
  secret: Uint8Array,
  paid: Map<string, () => void>,
  publish: (receipt: VerifiedEvent) => void,
  opts: Parameters<typeof startLnurlService>[1] = {},
): Promise<LnurlService> =>
  startLnurlService(
    {
      createInvoice: async (msat, descriptionHash) => signInvoice({ msat, descriptionHash }),
      payInvoice: async () => undefined,
      zaps: { secret, whenPaid: (hash) => new Promise<void>((resolve) => paid.set(hash, resolve)), publish },
    },
    opts,
  );
