/**
 * Lightning address (spec 2): a Plus member reserves a name at the lightning-address service and is paid
 * at name@host; the service gets each invoice from this wallet over its subscription connection. Names are
 * checked here first (spec 2 §5), then by the service ('Name already taken').
 *
 * While the wallet is closed the service receives into the mint the owner chose and sends the ecash as a
 * token in a NIP-17 message to the owner's nostr key; `RedeemAddressTokens` (run at every start) reads those
 * messages and redeems each token once.
 */
import { Effect } from "effect";
import { EcashFailure } from "../../engine/ecash/port";
import {
  type Fallback,
  HermesError,
  addressOf,
  checkName,
  lnNameProblem,
  myName,
  reserveName,
} from "../../engine/hermes/client";
import { boundedFetch, globalFetch } from "../../engine/http/bounded";
import { authSigner, GIFT_WRAP, openWrap } from "../../engine/nostr/dm";
import type { NostrEvent } from "../../engine/nostr/event";
import { nwcKeys } from "../../engine/nwc/keys";
import { InvalidInput, ServerUnavailable, type WalletError } from "../../errors";
import { type NewEvent, newEvent } from "../../events/make";
import type { Reservation } from "../../projections/lnaddress";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { keyInUse } from "../nostr";
import { SUBSCRIPTION_INDEX } from "./plus";

/** NIP-59 dates gift wraps up to two days back: reading new ones reaches back this far. */
const WRAP_BACKDATE_S = 3 * 24 * 3600;
/** A token in a message: the word that is one. */
const TOKEN_WORD = /^cashu[AB][A-Za-z0-9_=-]+$/;

export const HERMES_LIMITS = { timeoutMs: 15_000, maxBytes: 16_000 } as const;
const http = boundedFetch(globalFetch, HERMES_LIMITS);

export const notConfigured = () =>
  new InvalidInput({
    message: "Hermes not configured",
    key: "settings.lightningaddress.error_not_configured",
  });
export const nameTaken = () =>
  new InvalidInput({ message: "Name already taken", key: "settings.lightningaddress.error_taken" });

const checked = (name: string): Effect.Effect<string, WalletError> => {
  const problem = lnNameProblem(name);
  if (problem === "empty")
    return Effect.fail(
      new InvalidInput({ message: "Enter a name.", key: "settings.lightningaddress.error_empty" }),
    );
  if (problem === "characters")
    return Effect.fail(
      new InvalidInput({
        message: "Only lowercase letters, digits, dash, underscore and dot.",
        key: "settings.lightningaddress.error_characters",
      }),
    );
  return Effect.succeed(name);
};

const call = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: f,
    catch: (e) =>
      e instanceof HermesError && e.taken
        ? nameTaken()
        : new ServerUnavailable({
            message: e instanceof Error ? e.message : "The lightning-address service could not be reached",
            key: "error_connection",
          }),
  });

const secretOf = (ctx: HandlerContext) =>
  Effect.map(ctx.keys.mnemonic(), (m) => nwcKeys(m, SUBSCRIPTION_INDEX).clientSecret);

/** The reservation as an event, when the log does not say it yet (a restored wallet learns it here). */
const reservedEvents = (ctx: HandlerContext, r: Reservation): NewEvent[] => {
  const known = ctx.states.lnaddress.reservation;
  const same =
    known !== null &&
    known.host === r.host &&
    known.name === r.name &&
    known.mint === r.mint &&
    known.pubkey === r.pubkey &&
    known.service === r.service;
  return same ? [] : [newEvent("lnaddress.reserved", { ...r })];
};

export const getLightningAddress: Handler<"GetLightningAddress"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const secret = yield* secretOf(ctx);
    const mine = yield* ctx.outside(call(() => myName(http, cmd.host, secret)));
    const events =
      mine.name && mine.pubkey && mine.service
        ? reservedEvents(ctx, {
            host: cmd.host,
            name: mine.name,
            mint: mine.mint,
            pubkey: mine.pubkey,
            service: mine.service,
          })
        : [];
    return outcome(
      { name: mine.name, address: mine.name ? addressOf(cmd.host, mine.name) : null, mint: mine.mint },
      events,
    );
  });

export const checkLnName: Handler<"CheckLnName"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const name = yield* checked(cmd.name);
    const available = yield* ctx.outside(call(() => checkName(http, cmd.host, name)));
    return outcome({ available });
  });

export const reserveLnName: Handler<"ReserveLnName"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const name = yield* checked(cmd.name);
    const mint = cmd.mint ?? null;
    if (mint !== null) {
      const c = ctx.states.ecash.custodians.get(mint);
      if (!c?.joined || c.kind !== "cashu")
        return yield* Effect.fail(
          new InvalidInput({
            message: "Choose a mint you joined.",
            key: "settings.lightningaddress.error_mint",
          }),
        );
    }
    const secret = yield* secretOf(ctx);
    const key = yield* keyInUse(ctx);
    const fallback: Fallback | null = mint === null ? null : { mint, pubkey: key.pubkey };
    const { service } = yield* ctx.outside(call(() => reserveName(http, cmd.host, secret, name, fallback)));
    return outcome(
      { address: addressOf(cmd.host, name) },
      reservedEvents(ctx, { host: cmd.host, name, mint, pubkey: key.pubkey, service }),
    );
  });

/**
 * Reads the service's NIP-17 messages to the key the reservation named (after NIP-42 AUTH) and redeems the
 * token in each one not redeemed yet, with the payer's note (the token's memo). A mint that cannot be
 * reached leaves the token for the next start; a token the mint says is spent (redeemed before a crash
 * kept its record out of the log) is marked so and not tried again: what it held was received then.
 */
export const redeemAddressTokens: Handler<"RedeemAddressTokens"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const none = outcome({ redeemed: 0, amountSats: 0n });
    const r = ctx.states.lnaddress.reservation;
    const nostr = ctx.nostr;
    const ecash = ctx.ecash;
    if (!r || !nostr || !ecash) return none;
    const key = yield* keyInUse(ctx);
    if (key.pubkey !== r.pubkey) return none;
    const since = Math.max(0, ctx.states.lnaddress.newest - WRAP_BACKDATE_S);
    const wraps = yield* ctx.outside(
      Effect.promise(() =>
        nostr
          .authedQuery({ kinds: [GIFT_WRAP], "#p": [key.pubkey], since }, authSigner(key.secret))
          .catch(() => [] as NostrEvent[]),
      ),
    );
    const events: NewEvent[] = [];
    const seen = new Set<string>();
    let amountSats = 0n;
    let redeemed = 0;
    for (const wrap of wraps) {
      const m = openWrap(wrap, key.secret, key.pubkey);
      if (!m || m.from !== r.service || seen.has(m.id) || ctx.states.lnaddress.redeemed.has(m.id)) continue;
      seen.add(m.id);
      const token = m.text.split(/\s+/).find((w) => TOKEN_WORD.test(w));
      if (!token) continue;
      // The mint is asked with the command queue released: a silent mint delays only this redeem.
      const got = yield* ctx.outside(
        Effect.tryPromise({
          try: () => ecash.receiveToken(token),
          catch: (e) => e,
        }).pipe(Effect.result),
      );
      // Back in the queue: a message another command recorded meanwhile is not recorded twice.
      if (ctx.states.lnaddress.redeemed.has(m.id)) continue;
      if (got._tag === "Success") {
        const received = got.success.events.find((e) => e.type === "ecash.received");
        const op = received?.type === "ecash.received" ? received.payload.op : null;
        events.push(
          ...got.success.events,
          newEvent("lnaddress.redeemed", {
            message: m.id,
            at: m.at,
            op,
            mint: got.success.mint,
            note: got.success.memo ?? "",
          }),
        );
        amountSats += got.success.amountSats;
        redeemed++;
        continue;
      }
      const e = got.failure;
      // Unreachable, or a mint not joined (yet): the token waits for a later start.
      if (!(e instanceof EcashFailure) || e.unreachable || e.message.startsWith("Join the mint")) continue;
      events.push(
        newEvent("lnaddress.redeemed", {
          message: m.id,
          at: m.at,
          op: null,
          mint: r.mint ?? r.host,
          note: "",
        }),
      );
    }
    return outcome({ redeemed, amountSats }, events);
  });

export const lightningAddressHandlers = {
  GetLightningAddress: getLightningAddress,
  CheckLnName: checkLnName,
  ReserveLnName: reserveLnName,
  RedeemAddressTokens: redeemAddressTokens,
} as const;

export const lightningAddressNeeds: Needs = {
  GetLightningAddress: "seed",
  ReserveLnName: "seed",
  RedeemAddressTokens: ["nostr", "ecash"],
};
