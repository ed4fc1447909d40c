import { Data } from "effect";

/**
 * Failures a command can end with. Each carries the catalogue's English text (`message`) and, where the
 * spec names one, the i18n key the screen shows instead (`key`, with `values` for its placeholders).
 * They cross the worker boundary as `{_tag, message, key, values}` (see `toWire`).
 */
type Detail = { message: string; key?: string; values?: Record<string, string> };

/** Input that breaks a validation rule; nothing was changed. */
export class InvalidInput extends Data.TaggedError("InvalidInput")<Detail> {}
/** A destination for another network: "Destination is for X but you're on Y". */
export class WrongNetwork extends Data.TaggedError("WrongNetwork")<Detail> {}
/** Not enough funds for the amount and its fee. */
export class InsufficientFunds extends Data.TaggedError("InsufficientFunds")<Detail> {}
/** An export or import file that cannot be used; nothing was changed. */
export class ImportRejected extends Data.TaggedError("ImportRejected")<Detail> {}
/** The file or wallet is protected and no password was given. */
export class PasswordRequired extends Data.TaggedError("PasswordRequired")<Detail> {}
/** 'Incorrect password entered.' */
export class WrongPassword extends Data.TaggedError("WrongPassword")<Detail> {}
/** The command needs a wallet and there is none (or it needs none and there is one). */
export class WalletState extends Data.TaggedError("WalletState")<Detail> {}
/** A server (Esplora, price feed, LSP) could not be reached or answered badly. */
export class ServerUnavailable extends Data.TaggedError("ServerUnavailable")<Detail & { status?: number }> {}
/** A lightning payment ended without arriving; `message` is the reason the owner sees. */
export class PaymentFailed extends Data.TaggedError("PaymentFailed")<Detail> {}
/** The fee is high (above a tenth of the amount, or a fixed ceiling): the owner must confirm it a second time. */
export class FeeNeedsConfirmation extends Data.TaggedError("FeeNeedsConfirmation")<Detail> {}
/** The same destination was paid the same amount moments ago: the owner must confirm paying it again. */
export class RepeatNeedsConfirmation extends Data.TaggedError("RepeatNeedsConfirmation")<Detail> {}
/** A bug or an unexpected state; the message says where. */
export class Unexpected extends Data.TaggedError("Unexpected")<Detail> {}

export type WalletError =
  | InvalidInput
  | WrongNetwork
  | InsufficientFunds
  | ImportRejected
  | WrongPassword
  | PasswordRequired
  | WalletState
  | ServerUnavailable
  | PaymentFailed
  | FeeNeedsConfirmation
  | RepeatNeedsConfirmation
  | Unexpected;

export const WRONG_PASSWORD_TEXT = "Incorrect password entered.";
export const wrongPassword = () =>
  new WrongPassword({ message: WRONG_PASSWORD_TEXT, key: "settings.decrypt.error_wrong_password" });

/** The plain shape an error takes on the wire and in the UI. */
export interface WireError {
  readonly _tag: WalletError["_tag"];
  readonly message: string;
  readonly key?: string;
  readonly values?: Record<string, string>;
}

export const toWire = (e: WalletError): WireError => ({
  _tag: e._tag,
  message: e.message,
  ...(e.key ? { key: e.key } : {}),
  ...(e.values ? { values: e.values } : {}),
});

/** Anything thrown that is not one of ours becomes Unexpected with its message ('Unknown error' if none). */
/** Whether a thrown value is one of the wallet's tagged errors. */
export const isWalletError = (e: unknown): e is WalletError =>
  typeof e === "object" && e !== null && "_tag" in e && "message" in e;

export const unexpected = (cause: unknown): Unexpected =>
  new Unexpected({ message: cause instanceof Error && cause.message ? cause.message : "Unknown error" });
