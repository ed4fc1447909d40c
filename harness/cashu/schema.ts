/**
 * The shapes of the requests a Cashu mint takes (NUT-00 to NUT-09), checked before anything is believed:
 * every amount a whole number, every point 33 bytes of compressed secp256k1 in hex, every list bounded. A
 * request that does not fit is answered 400 `{detail, code}` and changes nothing.
 */
import { Schema } from "effect";

/** The most outputs, inputs or points one request may carry. */
export const MAX_ITEMS = 1_000;

const Amount = Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 2 ** 52 }));
const PositiveAmount = Schema.Number.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: 2 ** 52 }),
);
/** A compressed secp256k1 point (its validity on the curve is checked when it is read). */
const Point = Schema.String.check(Schema.isPattern(/^0[23][0-9a-fA-F]{64}$/));
/** NUT-02 keyset ids: version 00 (8 bytes) or version 01 (33 bytes), in hex. */
const KeysetId = Schema.String.check(Schema.isPattern(/^(00[0-9a-fA-F]{14}|01[0-9a-fA-F]{64})$/));
const QuoteId = Schema.String.check(Schema.isPattern(/^[0-9a-fA-F-]{1,64}$/));
const Unit = Schema.String.check(Schema.isMaxLength(32));

export const BlindedMessageSchema = Schema.Struct({ amount: Amount, id: KeysetId, B_: Point });
export type BlindedMessage = typeof BlindedMessageSchema.Type;

export const ProofSchema = Schema.Struct({
  amount: PositiveAmount,
  id: KeysetId,
  secret: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024)),
  C: Point,
  witness: Schema.optional(Schema.NullOr(Schema.Unknown)),
  dleq: Schema.optional(Schema.NullOr(Schema.Unknown)),
});
export type Proof = typeof ProofSchema.Type;

const Outputs = Schema.Array(BlindedMessageSchema).check(Schema.isMaxLength(MAX_ITEMS));
const Inputs = Schema.Array(ProofSchema).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_ITEMS));

export const SwapRequestSchema = Schema.Struct({
  inputs: Inputs,
  outputs: Outputs.check(Schema.isMinLength(1)),
});

export const MintQuoteRequestSchema = Schema.Struct({
  amount: PositiveAmount,
  unit: Unit,
  description: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(639)))),
  /**
   * This world's extension: the sha256 (hex) the invoice commits to instead of a text, so a lightning-address
   * service can hand a payer the mint's invoice for its LUD-06 metadata (or NIP-57 zap request).
   */
  description_hash: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)))),
  /** NUT-20 locks: this mint does not offer them, so a request asking for one is refused, never ignored. */
  pubkey: Schema.optional(Schema.NullOr(Schema.String)),
});

export const MintRequestSchema = Schema.Struct({
  quote: QuoteId,
  outputs: Outputs.check(Schema.isMinLength(1)),
  signature: Schema.optional(Schema.NullOr(Schema.String)),
});

export const MeltQuoteRequestSchema = Schema.Struct({
  request: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(8_000)),
  unit: Unit,
  options: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
});

export const MeltRequestSchema = Schema.Struct({
  quote: QuoteId,
  inputs: Inputs,
  outputs: Schema.optional(Schema.NullOr(Outputs)),
  prefer_async: Schema.optional(Schema.NullOr(Schema.Boolean)),
});

export const CheckStateRequestSchema = Schema.Struct({
  Ys: Schema.Array(Point).check(Schema.isMaxLength(MAX_ITEMS * 10)),
});

export const RestoreRequestSchema = Schema.Struct({
  outputs: Schema.Array(BlindedMessageSchema).check(Schema.isMaxLength(MAX_ITEMS * 10)),
});

export const ExpiryRequestSchema = Schema.Struct({
  /** Unix seconds after which the mint stops serving, or null for none. */
  end_of_service: Schema.NullOr(
    Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 2 ** 40 })),
  ),
});
