/**
 * Receive requests (spec 1 §5): a unified BIP21 URI (on-chain address plus a lightning invoice), an
 * on-chain-only one or a lightning-only invoice, and the check the receive screen polls every second.
 */
import { Effect } from "effect";
import { checkReceiveAmount } from "../../engine/onchain/validate";
import { encodeBip21 } from "../../engine/parse/bip21";
import type { CommandSpecs } from "../command";
import { type Handler, type HandlerContext, outcome } from "../context";
import type { NewEvent } from "../../events/make";
import { InvalidInput, type WalletError, WalletState } from "../../errors";
import { createBip21 } from "../onchain";
import { createInvoice } from "./lightning";
import { jitInvoice } from "./jit";
import { msatToSatsUp } from "../../engine/amount";
import { shownLabels } from "../../projections/contacts";
import { docChange } from "../wallet";

export type ReceiveFlavor = "unified" | "lightning" | "onchain";

/**
 * A lightning invoice for the request, or null when lightning cannot take it now (the node is not
 * running): the unified request then falls back to on-chain only.
 */
const invoiceFor = (
  amountSats: bigint | null,
  labels: { readonly all: string[]; readonly shown: string[] },
  ctx: HandlerContext,
  lightningOnly: boolean,
): Effect.Effect<{ bolt11: string; paymentHash: string; events: readonly NewEvent[] } | null, WalletError> =>
  ctx.lightning === null
    ? Effect.succeed(null)
    : Effect.flatMap(
        // More than the channels can take in: the LSP's invoice, which opens a channel as it is paid. A
        // unified request the LSP cannot serve keeps the wallet's own invoice beside its address.
        amountSats === null || amountSats <= 0n
          ? Effect.succeed(null)
          : lightningOnly
            ? jitInvoice(amountSats, labels.shown, ctx)
            : Effect.orElseSucceed(jitInvoice(amountSats, labels.shown, ctx), () => null),
        (jit) =>
          jit
            ? // The labels the payer must not see (a contact's id) label the payment in the owner's document.
              Effect.succeed({
                ...jit,
                events:
                  labels.all.length === labels.shown.length
                    ? jit.events
                    : [
                        ...jit.events,
                        ...docChange(ctx, (d) => {
                          d.labels[jit.paymentHash] = labels.all.filter((l) => !labels.shown.includes(l));
                        }),
                      ],
              })
            : Effect.map(
                createInvoice(
                  {
                    _tag: "CreateInvoice",
                    amountSats,
                    labels: labels.all,
                    description: labels.shown.join(", "),
                  },
                  ctx,
                ),
                (o) => ({
                  bolt11: o.result.bolt11,
                  paymentHash: o.result.paymentHash,
                  events: o.events,
                }),
              ),
      );

export const createReceive: Handler<"CreateReceive"> = (cmd, ctx) =>
  Effect.gen(function* () {
    // What the payer sees of the labels: never a contact's id (it only links the payment to the contact).
    const labels = { all: cmd.labels, shown: shownLabels(cmd.labels, ctx.states.crdt?.contacts ?? {}) };
    if (cmd.amountSats !== null && cmd.amountSats <= 0n && cmd.flavor === "lightning")
      return yield* Effect.fail(
        new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" }),
      );
    if (cmd.flavor === "lightning") {
      const invoice = yield* invoiceFor(cmd.amountSats, labels, ctx, true);
      if (invoice === null)
        return yield* Effect.fail(
          new WalletState({
            message: "The lightning node is not running yet.",
            key: "error_lightning_not_ready",
          }),
        );
      return outcome(
        { uri: invoice.bolt11, address: null, invoice: invoice.bolt11, paymentHash: invoice.paymentHash },
        invoice.events,
      );
    }
    const rule = checkReceiveAmount(cmd.amountSats);
    if (rule) return yield* Effect.fail(rule);
    const onchain = yield* createBip21(
      { _tag: "CreateBip21", amountSats: cmd.amountSats, labels: cmd.labels },
      ctx,
    );
    // A unified request falls back to on-chain only when lightning cannot invoice now.
    const invoice =
      cmd.flavor === "unified"
        ? yield* Effect.orElseSucceed(invoiceFor(cmd.amountSats, labels, ctx, false), () => null)
        : null;
    const label = labels.shown.join(", ");
    const uri = encodeBip21({
      address: onchain.result.address,
      amountSats: cmd.amountSats,
      label: label || null,
      ...(invoice ? { lightning: invoice.bolt11 } : {}),
    });
    return outcome(
      {
        uri,
        address: onchain.result.address,
        invoice: invoice?.bolt11 ?? null,
        paymentHash: invoice?.paymentHash ?? null,
      },
      [...onchain.events, ...(invoice?.events ?? [])],
    );
  });

/** Whether a request was paid: the invoice by the log, the address by asking the chain. */
export const checkReceived: Handler<"CheckReceived"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const i = cmd.paymentHash ? ctx.states.lightning.invoices.get(cmd.paymentHash.toLowerCase()) : undefined;
    if (i?.paidMsat !== null && i?.paidMsat !== undefined)
      return outcome<CommandSpecs["CheckReceived"]["output"]>({
        paid: "lightning_paid",
        amountSats: i.paidMsat / 1000n,
      });
    if (cmd.address && ctx.onchain?.receivedAt) {
      const received = yield* ctx.onchain.receivedAt(cmd.address);
      if (received > 0n) return outcome({ paid: "onchain_paid" as const, amountSats: received });
    }
    const refused = i?.refused;
    return outcome<CommandSpecs["CheckReceived"]["output"]>(
      refused
        ? {
            paid: null,
            amountSats: 0n,
            refused: {
              keptSats: msatToSatsUp(refused.skimmedMsat),
              promisedSats: msatToSatsUp(refused.promisedMsat ?? 0n),
            },
          }
        : { paid: null, amountSats: 0n },
    );
  });
