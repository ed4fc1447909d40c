/**
 * The shapes of an Esplora server's answers, checked before anything is believed: every amount is whole sats
 * between 0 and 21 million BTC, every height a whole number, every id 64 hex digits. An answer that does not
 * fit is the server's failure (retried, then reported), never a balance.
 */
import { Schema } from "effect";
import { MAX_MONEY_SATS } from "../../money";

const Sats = Schema.Number.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 0, maximum: Number(MAX_MONEY_SATS) }),
);
const Count = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0));
const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-fA-F]{64}$/));
const Hex = Schema.String.check(Schema.isPattern(/^([0-9a-fA-F]{2})*$/));

export const StatusSchema = Schema.Struct({
  confirmed: Schema.Boolean,
  block_height: Schema.optional(Count),
  block_hash: Schema.optional(Hex64),
  block_time: Schema.optional(Count),
});

const OutputSchema = Schema.Struct({
  scriptpubkey: Hex,
  scriptpubkey_address: Schema.optional(Schema.String),
  value: Sats,
});

export const TxSchema = Schema.Struct({
  txid: Hex64,
  vin: Schema.Array(
    Schema.Struct({
      txid: Hex64,
      vout: Count,
      prevout: Schema.NullOr(OutputSchema),
      sequence: Count,
      is_coinbase: Schema.optional(Schema.Boolean),
    }),
  ),
  vout: Schema.Array(OutputSchema),
  fee: Sats,
  status: StatusSchema,
});

const StatsSchema = Schema.Struct({ tx_count: Count, funded_txo_sum: Sats, spent_txo_sum: Sats });

export const AddressStatsSchema = Schema.Struct({ chain_stats: StatsSchema, mempool_stats: StatsSchema });

export const OutspendSchema = Schema.Struct({
  spent: Schema.Boolean,
  txid: Schema.optional(Hex64),
  vin: Schema.optional(Count),
});

export const UtxosSchema = Schema.Array(Schema.Struct({ txid: Hex64, vout: Count, value: Sats }));

/** Sat/vB by confirmation target: finite and not negative (the fee rules bound them from above). */
export const FeeEstimatesSchema = Schema.Record(
  Schema.String,
  Schema.Number.check(Schema.isFinite(), Schema.isGreaterThanOrEqualTo(0)),
);

export const MempoolSchema = Schema.Struct({ count: Count, vsize: Count, total_fee: Count });

export const BlockStatusSchema = Schema.Struct({
  in_best_chain: Schema.Boolean,
  height: Schema.optional(Count),
});

export const MerkleProofSchema = Schema.Struct({ block_height: Count, pos: Count });

export const TxidSchema = Hex64;
export const HeightSchema = Count;
