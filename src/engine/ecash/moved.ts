import { type NewEvent, newEvent } from "../../events/make";
import type { EcashVia } from "../../events/types";

/** The event of ecash arriving at or leaving custodian `mint` in operation `op` (a negative fee counts as none). */
export const ecashMoved = (
  type: "ecash.received" | "ecash.sent",
  mint: string,
  op: string,
  amount: bigint,
  fee: bigint,
  via: EcashVia,
  paymentHash: string | null = null,
): NewEvent =>
  newEvent(type, {
    op,
    mint,
    amount: amount.toString(),
    fee: (fee < 0n ? 0n : fee).toString(),
    via,
    payment_hash: paymentHash,
  });
