/**
 * The on-chain commands: receive addresses and BIP21 requests, fee estimates, sends, sweeps and the
 * chain sync. Handlers validate, ask the on-chain port and return events; they never write.
 */
import { hex } from "@scure/base";
import { Effect } from "effect";
import type { OnchainPort, SpendTarget } from "../../engine/onchain/port";
import {
  checkDestination,
  checkReceiveAmount,
  checkSendAmount,
  type Destination,
} from "../../engine/onchain/validate";
import { type FeeConsent, isHighFee } from "../../engine/onchain/fee-rules";
import { encodeBip21 } from "../../engine/parse/bip21";
import { newEvent } from "../../events/make";
import type { CommandTag } from "../command";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { type InvalidInput, RepeatNeedsConfirmation, WalletState, type WrongNetwork } from "../../errors";
import type { OnchainState } from "../../projections/onchain";

type OnchainTag =
  | "GetNewAddress"
  | "CheckAddress"
  | "CreateBip21"
  | "EstimateTxFee"
  | "SendToAddress"
  | "EstimateSweepTxFee"
  | "SweepWallet"
  | "SyncOnchain";

const portOf = (ctx: HandlerContext): Effect.Effect<OnchainPort, WalletState> =>
  ctx.onchain
    ? Effect.succeed(ctx.onchain)
    : Effect.fail(
        new WalletState({
          message: "The on-chain wallet is not running yet.",
          key: "errors.onchain_not_ready",
        }),
      );

const destination = (
  address: string,
  ctx: HandlerContext,
): Effect.Effect<Destination, InvalidInput | WrongNetwork> => {
  const d = checkDestination(address, ctx.network);
  return "script" in d ? Effect.succeed(d) : Effect.fail(d);
};

const rule = (e: InvalidInput | null): Effect.Effect<void, InvalidInput> =>
  e ? Effect.fail(e) : Effect.void;

/** The next receive address never handed out before, with the event that hands it out. */
const issueReceiveAddress = (port: OnchainPort, ctx: HandlerContext, labels: readonly string[]) => {
  const index = ctx.states.onchain.nextIndex.external;
  const address = port.addressAt("external", index);
  const event = newEvent("onchain.address_issued", {
    address,
    keychain: "external",
    index,
    labels: [...labels],
  });
  return { address, index, event };
};

export const getNewAddress: Handler<"GetNewAddress"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const port = yield* portOf(ctx);
    const { address, index, event } = issueReceiveAddress(port, ctx, cmd.labels);
    return outcome({ address, index, keychain: "external" as const }, [event]);
  });

export const checkAddress: Handler<"CheckAddress"> = (cmd, ctx) =>
  Effect.gen(function* () {
    yield* destination(cmd.address, ctx);
    return outcome({ network: ctx.network });
  });

export const createBip21: Handler<"CreateBip21"> = (cmd, ctx) =>
  Effect.gen(function* () {
    yield* rule(checkReceiveAmount(cmd.amountSats));
    const port = yield* portOf(ctx);
    const { address, event } = issueReceiveAddress(port, ctx, cmd.labels);
    const label = cmd.labels.join(", ");
    const uri = encodeBip21({ address, amountSats: cmd.amountSats, label: label || null });
    return outcome({ uri, address }, [event]);
  });

const payTarget = (cmd: { address: string; amountSats: bigint }, ctx: HandlerContext) =>
  Effect.gen(function* () {
    const dest = yield* destination(cmd.address, ctx);
    yield* rule(checkSendAmount(cmd.amountSats));
    return { kind: "pay", script: dest.script, amountSats: cmd.amountSats } satisfies SpendTarget;
  });

/** The fee the owner agreed to, as the command carries it. */
const consentOf = (cmd: { maxFeeSats?: bigint; highFeeConfirmed?: boolean }): FeeConsent => ({
  ...(cmd.maxFeeSats !== undefined ? { maxFeeSats: cmd.maxFeeSats } : {}),
  highFeeConfirmed: cmd.highFeeConfirmed === true,
});

const sweepTarget = (cmd: { address: string }, ctx: HandlerContext) =>
  Effect.map(
    destination(cmd.address, ctx),
    (dest) => ({ kind: "sweep", script: dest.script }) satisfies SpendTarget,
  );

export const estimateTxFee: Handler<"EstimateTxFee"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const target = yield* payTarget(cmd, ctx);
    const port = yield* portOf(ctx);
    const plan = yield* ctx.outside(port.plan(ctx.states.onchain, target));
    return outcome({ feeSats: plan.feeSats, highFee: isHighFee(plan.feeSats, plan.amountSats) });
  });

/** How long after a payment paying the same destination the same amount asks once more (ten minutes). */
export const REPEAT_WINDOW_MS = 10 * 60 * 1000;

/**
 * The send made here, within `REPEAT_WINDOW_MS` before `now`, that paid `amountSats` to the output script
 * `script`, and was not dropped; null when there is none. Decided from the log alone.
 */
export const recentSameSend = (
  state: OnchainState,
  script: Uint8Array,
  amountSats: bigint,
  now: number,
): { readonly txid: string; readonly seenAt: number } | null => {
  const wanted = hex.encode(script);
  for (const t of state.txs.values())
    if (
      t.paidTo?.script === wanted &&
      t.paidTo.amount === amountSats &&
      !t.dropped &&
      now - t.seenAt < REPEAT_WINDOW_MS
    )
      return { txid: t.txid, seenAt: t.seenAt };
  return null;
};

/**
 * Refuses, unless the owner already confirmed a repeat, a payment of the same amount to the same address as
 * one made within `REPEAT_WINDOW_MS` or one still on its way (signed, not yet recorded).
 */
const repeatCheck = (
  cmd: { repeatConfirmed?: boolean },
  target: Extract<SpendTarget, { kind: "pay" }>,
  port: OnchainPort,
  ctx: HandlerContext,
): Effect.Effect<void, RepeatNeedsConfirmation> => {
  if (cmd.repeatConfirmed === true) return Effect.void;
  const now = ctx.stamp.now();
  const script = hex.encode(target.script);
  const onItsWay = port.inFlight().some((p) => p.script === script && p.amountSats === target.amountSats);
  const before = onItsWay
    ? { seenAt: now }
    : recentSameSend(ctx.states.onchain, target.script, target.amountSats, now);
  if (!before) return Effect.void;
  const minutes = String(Math.max(1, Math.ceil((now - before.seenAt) / 60_000)));
  return Effect.fail(
    new RepeatNeedsConfirmation({
      message: `You paid ${target.amountSats} sats to this address ${minutes} min ago. Pay it again?`,
      key: "send.repeat_warning",
      values: { amount: target.amountSats.toString(), minutes },
    }),
  );
};

/**
 * A send or a sweep. Only the decisions hold the command queue: the chain scan with the fee estimate and
 * the broadcast wait on the server with it released, so a slow or silent Esplora server delays this payment
 * and nothing else. Back in the queue, `sign` decides on the log as it is then (coins no other spend holds,
 * the fee the owner agreed to, a change address not handed out); `check` runs again there too. The order
 * of what the world sees and what the log says is unchanged: the transaction is broadcast, then the event
 * that records it is appended; a broadcast that fails records nothing and frees its coins, and one the
 * server took while the log missed it (the tab closed in between) comes back with the next sync.
 */
const spendTo = (
  ctx: HandlerContext,
  port: OnchainPort,
  target: SpendTarget,
  labels: readonly string[],
  consent: FeeConsent,
  check: () => Effect.Effect<void, RepeatNeedsConfirmation> = () => Effect.void,
) =>
  Effect.gen(function* () {
    const draft = yield* ctx.outside(port.draft(ctx.states.onchain, target));
    yield* check();
    const signed = yield* port.sign(ctx.states.onchain, draft, target, consent);
    yield* ctx.outside(port.broadcast(signed));
    return { signed, events: port.record(ctx.states.onchain, signed, labels) };
  });

export const sendToAddress: Handler<"SendToAddress"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const target = yield* payTarget(cmd, ctx);
    const port = yield* portOf(ctx);
    const check = () => repeatCheck(cmd, target, port, ctx);
    yield* check();
    const { signed, events } = yield* spendTo(ctx, port, target, cmd.labels, consentOf(cmd), check);
    return outcome({ txid: signed.txid, feeSats: signed.feeSats }, events);
  });

export const estimateSweepTxFee: Handler<"EstimateSweepTxFee"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const target = yield* sweepTarget(cmd, ctx);
    const port = yield* portOf(ctx);
    const plan = yield* ctx.outside(port.plan(ctx.states.onchain, target));
    return outcome({
      feeSats: plan.feeSats,
      amountSats: plan.amountSats,
      highFee: isHighFee(plan.feeSats, plan.amountSats),
    });
  });

export const sweepWallet: Handler<"SweepWallet"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const target = yield* sweepTarget(cmd, ctx);
    const port = yield* portOf(ctx);
    const { signed, events } = yield* spendTo(ctx, port, target, cmd.labels, consentOf(cmd));
    return outcome({ txid: signed.txid, feeSats: signed.feeSats, amountSats: signed.amountSats }, events);
  });

/** Catches the log up with the chain. Before the on-chain wallet runs there is nothing to sync. */
export const syncOnchain: Handler<"SyncOnchain"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const port = ctx.onchain;
    if (!port) return outcome(null);
    // The scan waits on the server with the queue released; the changes are taken against the log as it
    // is once the queue is back, so nothing another command recorded meanwhile is recorded twice.
    const view = yield* ctx.outside(port.scan(ctx.states.onchain));
    return outcome(null, yield* port.changes(ctx.states.onchain, view));
  });

export const onchainHandlers: { readonly [K in OnchainTag]: Handler<K> } = {
  GetNewAddress: getNewAddress,
  CheckAddress: checkAddress,
  CreateBip21: createBip21,
  EstimateTxFee: estimateTxFee,
  SendToAddress: sendToAddress,
  EstimateSweepTxFee: estimateSweepTxFee,
  SweepWallet: sweepWallet,
  SyncOnchain: syncOnchain,
};

/** Every on-chain command but the address check runs on the engine built from the seed. */
export const onchainNeeds: Needs = {
  GetNewAddress: "onchain",
  CreateBip21: "onchain",
  EstimateTxFee: "onchain",
  SendToAddress: "onchain",
  EstimateSweepTxFee: "onchain",
  SweepWallet: "onchain",
  SyncOnchain: "onchain",
};

/** Every on-chain command tag, for the host's dispatch table. */
export const ONCHAIN_COMMANDS = Object.keys(onchainHandlers) as readonly (OnchainTag & CommandTag)[];
