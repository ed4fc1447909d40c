/**
 * Ecash out over lightning through a federation's gateway: a quote at the gateway's fee, then the payment,
 * written down before it goes out so that a crash is settled from the client's operation log (a payment is
 * never made twice), and followed until it ends or is answered as pending.
 */
import type { FedimintWallet } from "@fedimint/core";
import type { NewEvent } from "../../../events/make";
import { decodeBolt11 } from "../../parse";
import { ecashMoved } from "../moved";
import { type EcashAdapter, type MeltQuote, reserveRefusal } from "../port";
import { type Fedimint, follow, type PendingPay, record, refusal } from "./federation";
import {
  chooseGateway,
  feeSats,
  type Gateway,
  gatewayFeeMsat,
  payOutcome,
  paymentOf,
  satsOfMsats,
} from "./map";

/** Where the payment `p` stands, followed for at most `ms`. */
const payState = (w: FedimintWallet, p: PendingPay, ms: number) =>
  follow<unknown>(
    (ok, err) =>
      p.internal
        ? w.lightning.subscribeInternalPayment(p.operationId as string, ok, err)
        : w.lightning.subscribeLnPay(p.operationId as string, ok, err),
    (s) => payOutcome(s).status !== "pending",
    ms,
  ).then((s) => (s === null ? ({ status: "pending" } as const) : payOutcome(s)));

/** Settles the payments a crash or a slow gateway left on their way; answers their events. */
export const settlePays = (fedimint: Fedimint, fed: string): Promise<NewEvent[]> =>
  fedimint.withFederation(fed, async (w, s) => {
    const events: NewEvent[] = [];
    for (const p of [...s.pays]) {
      if (p.operationId === null) {
        // The answer to the payment was lost: the client's operation log says whether it went out.
        const ops = await w.federation.listOperations(50);
        const found = ops.find(
          ([, log]) =>
            log.meta.variant && "pay" in log.meta.variant && log.meta.variant.pay?.invoice === p.bolt11,
        );
        if (!found) {
          s.pays = s.pays.filter((x) => x.op !== p.op);
          continue;
        }
        p.operationId = found[0].operation_id;
        p.internal =
          found[1].meta.variant && "pay" in found[1].meta.variant
            ? Boolean(found[1].meta.variant.pay?.is_internal_payment)
            : false;
      }
      const outcome = await payState(w, p, 2_000);
      if (outcome.status === "pending") continue;
      s.pays = s.pays.filter((x) => x.op !== p.op);
      if (outcome.status === "paid")
        events.push(
          ...record(s, [
            ecashMoved("ecash.sent", fed, p.op, BigInt(p.amount), BigInt(p.fee), p.via, p.paymentHash),
          ]),
        );
    }
    await fedimint.persist(fed, s);
    return events;
  });

/** What paying `bolt11` through a gateway of `fed` costs. */
export const meltQuote = (fedimint: Fedimint, fed: string, bolt11: string): Promise<MeltQuote> =>
  fedimint.withFederation(fed, async (w) => {
    const invoice = decodeBolt11(bolt11);
    if (!invoice || invoice.amountMsat === null) throw refusal("Invalid Arguments were given");
    await w.lightning.updateGatewayCache();
    const gateway = chooseGateway(await w.lightning.listGateways(), invoice.amountMsat);
    if (!gateway) throw refusal("The federation has no lightning gateway.");
    const amountSats = (invoice.amountMsat + 999n) / 1000n;
    const fee = feeSats(gatewayFeeMsat(gateway, invoice.amountMsat));
    const refused = reserveRefusal(amountSats, fee);
    if (refused) throw refused;
    if (satsOfMsats(await w.balance.getBalance()) < amountSats + fee) throw refusal("Insufficient balance");
    const quote = { quoteId: fedimint.uuid(), bolt11, amountSats, feeSats: fee, reserveSats: fee };
    fedimint.melts.set(quote.quoteId, { ...quote, mint: fed, gateway });
    return quote;
  });

/** Pays the quote `quoteId` this run prepared, through the same gateway, for no more fee than the owner saw. */
export const melt = (
  fedimint: Fedimint,
  ...[fed, quoteId, amountSats, fee, via = "lightning"]: Parameters<EcashAdapter["melt"]>
) =>
  fedimint.withFederation(fed, async (w, s) => {
    const seen = fedimint.melts.get(quoteId);
    if (!seen || seen.mint !== fed) throw refusal("This payment was not prepared; start again.");
    if (seen.amountSats !== amountSats) throw refusal("The amount does not match the invoice.");
    // The worker pays what the owner saw: the gateway's fee now, above what was shown, is refused.
    await w.lightning.updateGatewayCache();
    const gateways = await w.lightning.listGateways();
    const gateway = chooseGateway(
      (gateways as unknown[]).filter((g) => (g as Gateway).info?.gateway_id === seen.gateway.info.gateway_id),
      amountSats * 1000n,
    );
    if (!gateway || feeSats(gatewayFeeMsat(gateway, amountSats * 1000n)) > fee)
      throw refusal("The fee changed; check the payment again.");
    const refused = reserveRefusal(amountSats, feeSats(gatewayFeeMsat(gateway, amountSats * 1000n)));
    if (refused) throw refused;
    fedimint.melts.delete(quoteId);
    const p: PendingPay = {
      op: fedimint.uuid(),
      bolt11: seen.bolt11,
      amount: amountSats.toString(),
      fee: fee.toString(),
      paymentHash: decodeBolt11(seen.bolt11)?.paymentHash ?? null,
      via,
      operationId: null,
      internal: false,
    };
    // Written down before the payment goes out: a crash is settled from the client's operation log.
    s.pays.push(p);
    await fedimint.persist(fed, s);
    const paid = paymentOf(
      await w.lightning.payInvoice(
        seen.bolt11,
        gateways.find((g) => g.info.gateway_id === gateway.info.gateway_id)?.info,
      ),
    );
    p.operationId = paid.operationId;
    p.internal = paid.internal;
    await fedimint.persist(fed, s);
    const outcome = await payState(w, p, fedimint.payWaitMs);
    if (outcome.status === "pending")
      return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events: [] };
    s.pays = s.pays.filter((x) => x.op !== p.op);
    if (outcome.status === "failed") {
      await fedimint.persist(fed, s);
      throw refusal("Payment failed");
    }
    const paidFee = feeSats(paid.feeMsat);
    const events = record(s, [ecashMoved("ecash.sent", fed, p.op, amountSats, paidFee, via, p.paymentHash)]);
    await fedimint.persist(fed, s);
    return { status: "paid" as const, amountSats, feeSats: paidFee, preimage: outcome.preimage, events };
  });
