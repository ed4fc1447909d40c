/**
 * LNURL commands: read a service's offer, get a checked invoice from a pay service, withdraw into a new
 * invoice of this wallet, and log in with LNURL-auth. The protocol lives in the engine (src/engine/lnurl);
 * its failures become the wallet's tagged errors here, once.
 */
import { Effect } from "effect";
import {
  type Fetch,
  fetchParams,
  fingerprintOf,
  LnurlError,
  type LnurlParams,
  login,
  openAesSuccessAction,
  payRangeSats,
  requestPayInvoice,
  submitWithdraw,
  withdrawRangeSats,
} from "../../engine/lnurl";
import { boundedFetch, globalFetch } from "../../engine/http/bounded";
import { rootKey } from "../../engine/keys/mnemonic";
import { hex } from "@scure/base";
import type { LnurlOffer } from "../command";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { ZAP_PRIVACIES, zapRequestJson } from "../../engine/nostr/zap-request";
import { crdtProjection } from "../../projections/crdt";
import { npubToHex } from "../nostr";
import { keyInUse } from "../nostr";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { isHodlDestination, isHodlHost } from "../../engine/parse/hodl";
import { settingsOf } from "../../projections/settings";
import { newEvent } from "../../events/make";
import { InvalidInput, isWalletError, ServerUnavailable, unexpected, type WalletError } from "../../errors";
import { createInvoice } from "../lightning";

/**
 * The wallet's transport for LNURL calls: each exchange within 15 s and 512 kB (metadata may carry an
 * image), so a service that never answers or floods delays only the command that called it.
 */
export const LNURL_LIMITS = { timeoutMs: 15_000, maxBytes: 512_000 } as const;
const http: Fetch = boundedFetch(globalFetch, LNURL_LIMITS);

/** An LnurlError as the wallet's error: the service's own reason verbatim, else the catalogue's text. */
export const fromLnurl = (e: unknown): WalletError => {
  if (isWalletError(e) && !(e instanceof LnurlError)) return e;
  if (!(e instanceof LnurlError)) return unexpected(e);
  if (e.key === "lnurl.error_unreachable") return new ServerUnavailable({ message: e.message, key: e.key });
  if (e.reason)
    return new InvalidInput({
      message: e.reason,
      key: "lnurl.error_service_reason",
      values: { reason: e.reason },
    });
  return new InvalidInput({ message: e.message, ...(e.key ? { key: e.key } : {}) });
};

const lnurlCall = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({ try: f, catch: fromLnurl });

/** What the screens see of an offer: whole sats, no callbacks or challenges. */
export const offerOf = (p: LnurlParams): LnurlOffer => {
  const base = { tag: p.tag, domain: p.domain, action: null, fingerprint: fingerprintOf(p) };
  if (p.tag === "payRequest") {
    const r = payRangeSats(p);
    return {
      ...base,
      minSats: r.min,
      maxSats: r.max,
      description: p.description,
      commentAllowed: p.commentAllowed,
      allowsNostr: p.nostrPubkey !== null,
    };
  }
  if (p.tag === "withdrawRequest") {
    const r = withdrawRangeSats(p);
    return {
      ...base,
      minSats: r.min,
      maxSats: r.max,
      description: p.defaultDescription,
      commentAllowed: 0,
      allowsNostr: false,
    };
  }
  return {
    ...base,
    minSats: 0n,
    maxSats: 0n,
    description: "",
    commentAllowed: 0,
    action: p.action,
    allowsNostr: false,
  };
};

/** The offer read now is not the one the owner confirmed: nothing is paid or asked for. */
const offerChanged = () =>
  new InvalidInput({
    message: "The service changed its offer since you confirmed it: nothing was paid.",
    key: "lnurl.error_offer_changed",
  });

/** A zap to a hodl-invoice provider while zaps to them are off: nothing is asked for or paid. */
const hodlZapOff = () =>
  new InvalidInput({
    message:
      "This payee holds its invoices, so zaps to it are off. Turn on zaps to hodl-invoice providers in Settings → Admin to send one.",
    key: "send.error_hodl_zap",
  });

const wrongKind = () =>
  new InvalidInput({ message: "This kind of LNURL is not supported.", key: "lnurl.error_unsupported" });

// Every call to a service waits with the command queue released (`ctx.outside`): a silent service delays
// only the command that called it.

export const decodeLnurl: Handler<"DecodeLnurl"> = (cmd, ctx) =>
  Effect.map(ctx.outside(lnurlCall(() => fetchParams(http, cmd.lnurl))), (p) => outcome(offerOf(p)));

export const lnurlPayInvoice: Handler<"LnurlPayInvoice"> = (cmd, ctx) =>
  Effect.gen(function* () {
    // A zap (NIP-57) to a contact, when the service takes them: public (signed by the wallet's key), private
    // (the real request encrypted to the contact) or anonymous (a throwaway key).
    const privacy = cmd.zap?.privacy ?? "Public";
    if (!ZAP_PRIVACIES.includes(privacy))
      return yield* Effect.fail(
        new InvalidInput({ message: "Unknown zap privacy.", key: "errors.zap_privacy" }),
      );
    const zapTo = cmd.zap ? yield* zapRecipient(ctx, cmd.zap.contactId) : null;
    const key = zapTo ? yield* keyInUse(ctx) : null;
    const relays = ctx.config?.nostr?.relays ?? [];
    // Zaps to a provider that holds its invoices only when the owner allowed it (settings → admin).
    const hodlAllowed = settingsOf(crdtProjection.view(ctx.states.crdt)).should_zap_hodl;
    if (zapTo && !hodlAllowed && isHodlDestination(null, cmd.lnurl)) return yield* Effect.fail(hodlZapOff());
    const answer = yield* ctx.outside(
      lnurlCall(async () => {
        const p = await fetchParams(http, cmd.lnurl);
        if (p.tag !== "payRequest") throw wrongKind();
        // The offer read again must be the one the owner confirmed: same host, same metadata.
        if (fingerprintOf(p) !== cmd.fingerprint) throw offerChanged();
        if (zapTo && !hodlAllowed && isHodlHost(p.domain)) throw hodlZapOff();
        const zapRequest =
          zapTo && key && p.nostrPubkey !== null
            ? zapRequestJson(privacy, {
                secret: key.secret,
                recipient: zapTo,
                amountMsat: cmd.amountSats * 1000n,
                comment: cmd.comment.trim(),
                relays,
                createdAt: Math.floor(ctx.stamp.now() / 1000),
              })
            : undefined;
        const r = await requestPayInvoice(http, p, cmd.amountSats, cmd.comment, ctx.network, zapRequest);
        return { ...r, zapRequest: zapRequest ?? null, service: p.nostrPubkey };
      }),
    );
    const hash = answer.zapRequest ? decodeBolt11(answer.bolt11)?.paymentHash : undefined;
    // The zap is recorded so its receipt can be checked against this request once it is paid.
    const zapEvents =
      hash && answer.zapRequest && answer.service && zapTo
        ? [
            newEvent("zap.requested", {
              paymentHash: hash,
              bolt11: answer.bolt11,
              request: answer.zapRequest,
              service: answer.service,
              recipient: zapTo,
            }),
          ]
        : [];
    return outcome(
      { bolt11: answer.bolt11, successAction: answer.successAction, zapRequest: answer.zapRequest },
      zapEvents,
    );
  });

/** The hex key of the contact a zap goes to; 'Contact doesn't have a npub' when it has none. */
const zapRecipient = (ctx: HandlerContext, contactId: string) => {
  const c = crdtProjection.view(ctx.states.crdt).contacts?.[contactId];
  const hex = c && !c.deleted && c.npub ? npubToHex(c.npub) : null;
  return hex
    ? Effect.succeed(hex)
    : Effect.fail(
        new InvalidInput({ message: "Contact doesn't have a npub", key: "contacts.error_no_npub" }),
      );
};

/** LNURL-withdraw: a new invoice of this wallet for the amount, handed to the service to pay. */
export const lnurlWithdraw: Handler<"LnurlWithdraw"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const p = yield* ctx.outside(lnurlCall(() => fetchParams(http, cmd.lnurl)));
    if (p.tag !== "withdrawRequest") return yield* Effect.fail(wrongKind());
    if (fingerprintOf(p) !== cmd.fingerprint) return yield* Effect.fail(offerChanged());
    const range = withdrawRangeSats(p);
    if (cmd.amountSats < range.min || cmd.amountSats > range.max || cmd.amountSats <= 0n)
      return yield* Effect.fail(
        new InvalidInput({
          message: "The amount is outside what the service allows.",
          key: "lnurl.error_amount_range",
        }),
      );
    const invoice = yield* createInvoice(
      { _tag: "CreateInvoice", amountSats: cmd.amountSats, labels: [], description: p.defaultDescription },
      ctx,
    );
    yield* ctx.outside(lnurlCall(() => submitWithdraw(http, p, invoice.result.bolt11)));
    return outcome({ amountSats: cmd.amountSats, paymentHash: invoice.result.paymentHash }, invoice.events);
  });

const secretUnopened = () =>
  new InvalidInput({
    message: "The service's secret could not be opened with this payment.",
    key: "lnurl.error_aes",
  });

/**
 * LUD-10: opens the service's secret with the preimage of our paid invoice `paymentHash` (known only once
 * the payment succeeded).
 */
export const openSuccessAction: Handler<"OpenSuccessAction"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const paid = [...ctx.states.lightning.payments.values()].find(
      (p) => p.paymentHash === cmd.paymentHash && p.preimage !== null,
    );
    if (!paid?.preimage) return yield* Effect.fail(secretUnopened());
    const preimage = hex.decode(paid.preimage);
    const message = yield* Effect.promise(() => openAesSuccessAction(cmd, preimage));
    if (message === null) return yield* Effect.fail(secretUnopened());
    return outcome({ message });
  });

/** LNURL-auth: signs the service's challenge with this domain's key from the seed (LUD-04, LUD-05). */
export const lnurlAuth: Handler<"LnurlAuth"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const mnemonic = yield* ctx.keys.mnemonic();
    const done = yield* ctx.outside(lnurlCall(() => login(http, cmd.lnurl, rootKey(mnemonic))));
    return outcome({ domain: done.domain });
  });

export const lnurlHandlers = {
  DecodeLnurl: decodeLnurl,
  LnurlPayInvoice: lnurlPayInvoice,
  LnurlWithdraw: lnurlWithdraw,
  OpenSuccessAction: openSuccessAction,
  LnurlAuth: lnurlAuth,
} as const;

/** Paying a service and withdrawing from one both use the node. */
export const lnurlNeeds: Needs = { LnurlPayInvoice: "lightning", LnurlWithdraw: "lightning" };
