import type { Network } from "../../events/types";

/**
 * Why a payment string was refused. `message` is the catalogue's English text; `key` and `values` are what
 * a screen translates instead (the same shape as command errors' `key` and `values`).
 */
export class PaymentRequestError extends Error {
  override readonly name = "PaymentRequestError";
  constructor(
    message: string,
    readonly key:
      | "payment_request.invalid"
      | "payment_request.wrong_network"
      | "payment_request.amount_mismatch",
    readonly values: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const INVALID_PAYMENT_REQUEST_TEXT = "Invalid payment request";

export const invalidPaymentRequest = (): PaymentRequestError =>
  new PaymentRequestError(INVALID_PAYMENT_REQUEST_TEXT, "payment_request.invalid");

/** "Destination is for X but you're on Y". */
export const wrongNetwork = (destination: Network, wallet: Network): PaymentRequestError =>
  new PaymentRequestError(
    `Destination is for ${destination} but you're on ${wallet}`,
    "payment_request.wrong_network",
    {
      destination,
      wallet,
    },
  );

export const AMOUNT_MISMATCH_TEXT = "This link asks for two different amounts: its own and its invoice's.";

/** A link whose amount and whose invoice's amount disagree: which one was meant cannot be known. */
export const amountMismatch = (): PaymentRequestError =>
  new PaymentRequestError(AMOUNT_MISMATCH_TEXT, "payment_request.amount_mismatch");
