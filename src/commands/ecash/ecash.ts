/**
 * Ecash commands (spec 2 federations, /swaplightning, /transfer): join and remove custodians (Cashu mints by
 * URL, Fedimint federations by invite code), receive into ecash over lightning, pay invoices from ecash,
 * send and receive tokens, move ecash between custodians and to the wallet's own lightning, and restore
 * what the seed holds at a mint. The adapter writes its own state; the handlers return the events that
 * record what moved, so the ecash balances are folds of the log.
 */
import { Effect } from "effect";
import { EcashFailure } from "../../engine/ecash/port";
import type { FedimintInvite } from "../../engine/ecash/fedimint/invite";
import { decodeBolt11, networkAccepted } from "../../engine/parse";
import { type NewEvent, newEvent } from "../../events/make";
import { joinedCustodians } from "../../projections/ecash";
import { InvalidInput } from "../../errors";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import {
  ask,
  asWalletError,
  atMost,
  connectFailed,
  custodian,
  FEDERATION_CONNECT_FAILED,
  historyBack,
  INVALID_ARGUMENTS,
  invalidAmount,
  invalidArguments,
  noFederation,
  portOf,
  positive,
} from "./common";
import { prepareSwapToLightning, quoteEcashTransfer, transferEcash } from "./transfer";

export {
  FEDERATION_CONNECT_FAILED,
  INVALID_ARGUMENTS,
  prepareSwapToLightning,
  quoteEcashTransfer,
  transferEcash,
};

/** Reads a Cashu mint (info and keysets) before joining; the ecash engine's code is not loaded for it. */
const describe = (ctx: HandlerContext, url: string) =>
  Effect.tryPromise({
    try: async () => {
      if (!ctx.fetch) throw new Error("no network");
      const { describeMint } = await import("../../engine/ecash/cashu/info");
      return describeMint(ctx.fetch, url);
    },
    // A mint that answered with fees above the wallet's bound is refused as such; anything else: unreachable.
    catch: (e) => (e instanceof EcashFailure && e.key ? asWalletError(e) : connectFailed()),
  });

/**
 * Joins a Fedimint federation with its real client (loaded now, in its own chunk): the guardians of the
 * invite are reached within the client's timeout, or it fails with 'Failed to connect to a federation.'.
 */
const joinFedimint = (ctx: HandlerContext, invite: FedimintInvite) =>
  Effect.tryPromise({
    try: async () => {
      if (!ctx.loadFedimint)
        throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
      const { joinFederation: join } = await import("../../engine/ecash/fedimint/join");
      return join(ctx.loadFedimint, ctx.network, invite);
    },
    catch: asWalletError,
  });

export const joinFederation: Handler<"JoinFederation"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const code = cmd.code.trim();
    if (code === "")
      return yield* Effect.fail(
        new InvalidInput({ message: "Federation code required", key: "errors.federation_code_required" }),
      );
    const { decodeInvite } = yield* Effect.promise(() => import("../../engine/ecash/fedimint/invite"));
    const { normaliseMintUrl } = yield* Effect.promise(() => import("../../engine/ecash/cashu/info"));
    const invite = decodeInvite(code);
    const url = invite ? null : normaliseMintUrl(code);
    if (!invite && !url) return yield* Effect.fail(invalidArguments());
    const id = invite ? invite.federationId : (url as string);
    if (custodian(ctx, id))
      return yield* Effect.fail(
        new InvalidInput({ message: "You're already a member of this federation.", key: "already_in_fed" }),
      );
    if (invite) {
      const meta = yield* ctx.outside(joinFedimint(ctx, invite));
      if (custodian(ctx, invite.federationId))
        return yield* Effect.fail(
          new InvalidInput({ message: "You're already a member of this federation.", key: "already_in_fed" }),
        );
      return outcome({ federationId: invite.federationId, name: meta.name }, [
        newEvent("ecash.joined", {
          mint: invite.federationId,
          kind: "fedimint",
          name: meta.name,
          welcome: meta.welcome,
          expires_at: meta.expiresAt,
          invite: invite.code,
        }),
      ]);
    }
    const mint = yield* ctx.outside(describe(ctx, url as string));
    if (custodian(ctx, mint.url))
      return yield* Effect.fail(
        new InvalidInput({ message: "You're already a member of this federation.", key: "already_in_fed" }),
      );
    return outcome({ federationId: mint.url, name: mint.name }, [
      newEvent("ecash.joined", {
        mint: mint.url,
        kind: "cashu",
        name: mint.name,
        welcome: mint.welcome,
        expires_at: mint.expiresAt,
        invite: mint.url,
      }),
    ]);
  });

export const removeFederation: Handler<"RemoveFederation"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const c = custodian(ctx, cmd.federationId);
    if (!c) return yield* Effect.fail(noFederation());
    // Custody stays visible: ecash is moved out before its custodian leaves the list.
    if (c.balance > 0n)
      return yield* Effect.fail(
        new InvalidInput({
          message: "Move this federation's ecash out before removing it.",
          key: "settings.manage_federations.remove_with_balance",
        }),
      );
    return outcome(null, [newEvent("ecash.removed", { mint: c.mint })]);
  });

export const receiveEcash: Handler<"ReceiveEcash"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    if (!custodian(ctx, cmd.federationId)) return yield* Effect.fail(noFederation());
    if (cmd.amountSats <= 0n)
      return yield* Effect.fail(
        new InvalidInput({
          message: "Enter an amount to receive into ecash.",
          key: "receive.ecash_amount_required",
        }),
      );
    const q = yield* ask(ctx, () => port.receiveQuote(cmd.federationId, cmd.amountSats));
    return outcome({ bolt11: q.bolt11, paymentHash: q.paymentHash, expiresAt: q.expiresAt });
  });

export const checkEcash: Handler<"CheckEcash"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    const events = yield* ask(ctx, () => port.checkReceives(cmd.federationId));
    return outcome({ receivedSats: receivedOf(events) }, events);
  });

const receivedOf = (events: readonly NewEvent[]) =>
  events.reduce((sum, e) => (e.type === "ecash.received" ? sum + BigInt(e.payload.amount) : sum), 0n);

const checkedInvoice = (ctx: HandlerContext, bolt11: string) =>
  Effect.gen(function* () {
    const decoded = decodeBolt11(bolt11.trim().replace(/^lightning:/i, ""));
    if (!decoded)
      return yield* Effect.fail(
        new InvalidInput({ message: "Invalid payment request", key: "payment_request.invalid" }),
      );
    if (!networkAccepted(decoded.network, ctx.network))
      return yield* Effect.fail(
        new InvalidInput({
          message: `Destination is for ${decoded.network} but you're on ${ctx.network}`,
          key: "payment_request.wrong_network",
          values: { destination: decoded.network, wallet: ctx.network },
        }),
      );
    if (decoded.amountMsat === null) return yield* Effect.fail(invalidAmount());
    if (decoded.expiresAt * 1000 < ctx.stamp.now())
      return yield* Effect.fail(
        new InvalidInput({ message: "This invoice has expired.", key: "send.error_expired" }),
      );
    return decoded;
  });

export const ecashMeltQuote: Handler<"EcashMeltQuote"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    if (!custodian(ctx, cmd.federationId)) return yield* Effect.fail(noFederation());
    const decoded = yield* checkedInvoice(ctx, cmd.bolt11);
    const q = yield* ask(ctx, () => port.meltQuote(cmd.federationId, decoded.invoice));
    return outcome({ quoteId: q.quoteId, bolt11: q.bolt11, amountSats: q.amountSats, feeSats: q.feeSats });
  });

export const payInvoiceFromEcash: Handler<"PayInvoiceFromEcash"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    const c = custodian(ctx, cmd.federationId);
    if (!c) return yield* Effect.fail(noFederation());
    yield* positive(cmd.amountSats);
    yield* atMost(cmd.amountSats + cmd.feeSats, c.balance);
    const r = yield* ask(ctx, () => port.melt(cmd.federationId, cmd.quoteId, cmd.amountSats, cmd.feeSats));
    if (r.status === "pending")
      return outcome({ status: "pending" as const, amountSats: r.amountSats, feeSats: 0n });
    return outcome({ status: "paid" as const, amountSats: r.amountSats, feeSats: r.feeSats }, r.events);
  });

export const sendEcashToken: Handler<"SendEcashToken"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    const c = custodian(ctx, cmd.federationId);
    if (!c) return yield* Effect.fail(noFederation());
    yield* positive(cmd.amountSats);
    yield* atMost(cmd.amountSats, c.balance);
    const r = yield* ask(ctx, () => port.sendToken(cmd.federationId, cmd.amountSats));
    return outcome({ token: r.token }, r.events);
  });

export const receiveEcashToken: Handler<"ReceiveEcashToken"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    if (cmd.token.trim() === "") return yield* Effect.fail(invalidArguments());
    const r = yield* ask(ctx, () => port.receiveToken(cmd.token));
    return outcome({ federationId: r.mint, amountSats: r.amountSats }, r.events);
  });

export const restoreEcash: Handler<"RestoreEcash"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    const mints = joinedCustodians(ctx.states.ecash)
      .filter((c) => c.kind === "cashu" && (!cmd.federationId || c.mint === cmd.federationId))
      .map((c) => c.mint);
    if (mints.length === 0) return yield* Effect.fail(noFederation());
    yield* historyBack(ctx);
    const events: NewEvent[] = [];
    const unreachable: string[] = [];
    let recovered = 0n;
    for (const m of mints) {
      const accounted = ctx.states.ecash.custodians.get(m)?.balance ?? 0n;
      const r = yield* Effect.result(ask(ctx, () => port.restore(m, undefined, accounted)));
      if (r._tag === "Success") {
        recovered += r.success.amountSats;
        events.push(...r.success.events);
      } else unreachable.push(m);
    }
    // A Fedimint federation's client keeps a secret of its own, not one from the 12 words: its ecash
    // cannot be restored from the seed. Named, never silently skipped.
    const notRestored = [
      ...unreachable,
      ...joinedCustodians(ctx.states.ecash)
        .filter((c) => c.kind === "fedimint")
        .map((c) => c.mint),
    ];
    return outcome({ recoveredSats: recovered, notRestored }, events);
  });

export const ecashHandlers = {
  JoinFederation: joinFederation,
  RemoveFederation: removeFederation,
  ReceiveEcash: receiveEcash,
  CheckEcash: checkEcash,
  EcashMeltQuote: ecashMeltQuote,
  PayInvoiceFromEcash: payInvoiceFromEcash,
  SendEcashToken: sendEcashToken,
  ReceiveEcashToken: receiveEcashToken,
  QuoteEcashTransfer: quoteEcashTransfer,
  TransferEcash: transferEcash,
  PrepareSwapToLightning: prepareSwapToLightning,
  RestoreEcash: restoreEcash,
} as const;

export const ecashNeeds: Needs = {
  ReceiveEcash: "ecash",
  CheckEcash: "ecash",
  EcashMeltQuote: "ecash",
  PayInvoiceFromEcash: "ecash",
  SendEcashToken: "ecash",
  ReceiveEcashToken: "ecash",
  QuoteEcashTransfer: "ecash",
  TransferEcash: "ecash",
  PrepareSwapToLightning: ["ecash", "lightning"],
  RestoreEcash: "ecash",
};
