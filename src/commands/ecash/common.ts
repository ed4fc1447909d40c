/**
 * What the ecash handlers share: the adapter's failures as the wallet's, the custodian checks, and the one
 * way a handler reaches a custodian: with the command queue released (`ctx.outside`), so a mint or federation
 * that is slow or silent delays only the command that asked it. Back in the queue, `ctx.states` is the log as
 * it is then: a handler that decides on it after a call reads it again.
 */
import { Effect } from "effect";
import { EcashFailure, type EcashPort } from "../../engine/ecash/port";
import {
  InsufficientFunds,
  InvalidInput,
  ServerUnavailable,
  type WalletError,
  WalletState,
} from "../../errors";
import type { HandlerContext } from "../context";
import { logInStep } from "../storage";
import { openWalletStores } from "../../engine/storage";

export const FEDERATION_CONNECT_FAILED = "Failed to connect to a federation.";
export const INVALID_ARGUMENTS = "Invalid Arguments were given";

/** 'Failed to connect to a federation.', with its catalogue key. */
export const connectFailed = (message: string = FEDERATION_CONNECT_FAILED) =>
  new ServerUnavailable({ message, key: "errors.federation_connect_failed" });
/** 'Invalid Arguments were given' (a code or token that is none), with its catalogue key. */
export const invalidArguments = () =>
  new InvalidInput({ message: INVALID_ARGUMENTS, key: "errors.invalid_arguments" });
/** 'Satoshi amount is invalid', with its catalogue key. */
export const invalidAmount = () =>
  new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" });

const notRunning = () =>
  new WalletState({
    message: "Ecash is still starting; try again in a moment.",
    key: "error_ecash_not_ready",
  });

export const portOf = (ctx: HandlerContext): Effect.Effect<EcashPort, WalletError> =>
  ctx.ecash ? Effect.succeed(ctx.ecash) : Effect.fail(notRunning());

/** An adapter's failure as the wallet's: unreachable custodians, insufficient ecash, refusals. */
export const asWalletError = (e: unknown): WalletError => {
  if (e instanceof EcashFailure) {
    if (e.unreachable) return connectFailed(e.message);
    if (e.message === "Insufficient balance")
      return new InsufficientFunds({ message: e.message, key: "send.error_low_balance" });
    return new InvalidInput({
      message: e.message,
      ...(e.key ? { key: e.key } : {}),
      ...(e.values ? { values: e.values } : {}),
    });
  }
  if (typeof e === "object" && e !== null && "_tag" in e) return e as WalletError;
  return connectFailed();
};

/** Asks the custodian with the command queue released; its answer (or failure) once it came. */
export const ask = <T>(ctx: HandlerContext, f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  ctx.outside(Effect.tryPromise({ try: f, catch: asWalletError }));

export const custodian = (ctx: HandlerContext, id: string) => {
  const c = ctx.states.ecash.custodians.get(id);
  return c?.joined ? c : null;
};

export const HISTORY_NOT_BACK =
  "Recover ecash once your wallet's history is back from the storage server and it runs on this device only, so nothing is counted twice.";

/** How long a recovery waits for the log to be in step (this device's newest events still going up). */
export const IN_STEP_WAIT_MS = 20_000;

/**
 * Ecash is recovered from the seed only into a log in step with the storage server (`logInStep`): all the
 * history there, and no other device running. Recovery otherwise would count the proofs it finds, and the
 * other device's events arriving after would count the same ecash again. Without a storage server the log
 * is this device's alone. Events this device just recorded may still be on their way up: it asks again,
 * for at most `IN_STEP_WAIT_MS`, before it refuses.
 */
export const historyBack = (ctx: HandlerContext): Effect.Effect<void, WalletError> =>
  Effect.gen(function* () {
    const url = ctx.config?.servers?.storage;
    const l = ctx.lifecycle;
    if (!url || !l) return;
    const mnemonic = yield* ctx.keys.mnemonic();
    const stores = openWalletStores(url, mnemonic, ctx.network, ctx.fetch);
    const inStep = async () => {
      const end = Date.now() + IN_STEP_WAIT_MS;
      for (;;) {
        if (await logInStep(l.secrets.store, stores, url)) return true;
        if (Date.now() >= end) return false;
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    if (!(yield* ctx.outside(Effect.promise(inStep))))
      return yield* Effect.fail(
        new WalletState({ message: HISTORY_NOT_BACK, key: "federations.restore_waits_for_storage" }),
      );
  });

export const noFederation = () =>
  new InvalidInput({ message: "No from/to federation", key: "errors.no_federation" });

export const positive = (amountSats: bigint) =>
  amountSats > 0n ? Effect.void : Effect.fail(invalidAmount());

export const atMost = (amountSats: bigint, balance: bigint) =>
  amountSats <= balance
    ? Effect.void
    : Effect.fail(
        new InsufficientFunds({
          message: "You don't have enough balance for this amount and its fee.",
          key: "send.error_low_balance",
        }),
      );
