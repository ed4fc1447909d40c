/** Ecash in over lightning: a federation's invoice, and the receive claimed once its gateway was paid. */
import type { NewEvent } from "../../../events/make";
import { decodeBolt11 } from "../../parse";
import { ecashMoved } from "../moved";
import { type Fedimint, follow, record, refusal } from "./federation";
import { receiveOutcome } from "./map";

/** An invoice of federation `fed` that becomes `amountSats` of its ecash here once paid. */
export const receiveQuote = (
  fedimint: Fedimint,
  fed: string,
  amountSats: bigint,
  via: "lightning" | "transfer",
) =>
  fedimint.withFederation(fed, async (w, s) => {
    const r = await w.lightning.createInvoice(Number(amountSats * 1000n), "", 3600);
    const invoice = decodeBolt11(r.invoice);
    if (!invoice || invoice.amountMsat !== amountSats * 1000n)
      throw refusal("The federation answered an invoice for another amount.");
    s.receives.push({
      op: fedimint.uuid(),
      operationId: r.operation_id,
      amount: amountSats.toString(),
      paymentHash: invoice.paymentHash,
      expiresAt: invoice.expiresAt,
      via,
    });
    await fedimint.persist(fed, s);
    return { bolt11: r.invoice, paymentHash: invoice.paymentHash, amountSats, expiresAt: invoice.expiresAt };
  });

/** The receives of `fed` that were claimed (recorded) or ended unpaid (forgotten). */
export const checkReceives = (fedimint: Fedimint, fed: string) =>
  fedimint.withFederation(fed, async (w, s) => {
    const events: NewEvent[] = [];
    for (const r of [...s.receives]) {
      const state = await follow<unknown>(
        (ok, err) => w.lightning.subscribeLnReceive(r.operationId, ok, err),
        (x) => receiveOutcome(x) !== "waiting",
        1_500,
      );
      const outcome = receiveOutcome(state);
      if (outcome === "waiting") continue;
      s.receives = s.receives.filter((x) => x.op !== r.op);
      if (outcome === "claimed")
        events.push(
          ...record(s, [ecashMoved("ecash.received", fed, r.op, BigInt(r.amount), 0n, r.via, r.paymentHash)]),
        );
      await fedimint.persist(fed, s);
    }
    return events;
  });
