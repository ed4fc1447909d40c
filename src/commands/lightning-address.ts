/**
 * Lightning address (spec 2): a Plus member reserves a name at the lightning-address service and is paid
 * at name@host; the service gets each invoice from this wallet over its subscription connection. Names are
 * checked here first (spec 2 §5), then by the service ('Name already taken').
 */
import { Effect } from "effect";
import {
  HermesError,
  addressOf,
  checkName,
  lnNameProblem,
  myName,
  reserveName,
} from "../engine/hermes/client";
import { boundedFetch } from "../engine/http/bounded";
import { nwcKeys } from "../engine/nwc/keys";
import { InvalidInput, ServerUnavailable, type WalletError } from "../errors";
import { type Handler, type HandlerContext, type Needs, outcome } from "./context";
import { SUBSCRIPTION_INDEX } from "./plus";

export const HERMES_LIMITS = { timeoutMs: 15_000, maxBytes: 16_000 } as const;
const http = boundedFetch((input, init) => fetch(input, init), HERMES_LIMITS);

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
      new InvalidInput({ message: "Name is required", key: "settings.lightningaddress.error_empty" }),
    );
  if (problem === "characters")
    return Effect.fail(
      new InvalidInput({
        message: "Only lowercase letters, digits, dash, underscore and dot",
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

export const getLightningAddress: Handler<"GetLightningAddress"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const secret = yield* secretOf(ctx);
    const name = yield* ctx.outside(call(() => myName(http, cmd.host, secret)));
    return outcome({ name, address: name ? addressOf(cmd.host, name) : null });
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
    const secret = yield* secretOf(ctx);
    yield* ctx.outside(call(() => reserveName(http, cmd.host, secret, name)));
    return outcome({ address: addressOf(cmd.host, name) });
  });

export const lightningAddressHandlers = {
  GetLightningAddress: getLightningAddress,
  CheckLnName: checkLnName,
  ReserveLnName: reserveLnName,
} as const;

export const lightningAddressNeeds: Needs = { GetLightningAddress: "seed", ReserveLnName: "seed" };
