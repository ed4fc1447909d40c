/**
 * What a watchtower needs, built as each channel update is persisted (LDK's own recipe, its test
 * `WatchtowerPersister`): every new commitment of the partner's is kept until the partner revokes it; then
 * the monitor, which now holds the revocation secret, signs a justice transaction taking that commitment's
 * `to_local` output (the partner's side) to the wallet's destination script, and it is handed on
 * (`onJustice`) with the commitment's txid. LDK's helper builds the `to_local` one only: HTLC outputs of a
 * revoked commitment are left to the wallet's own node (see docs).
 */
import { Transaction } from "@scure/btc-signer";
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";

export interface JusticeDeps {
  /** Where a justice transaction pays: the wallet's destination script (its sweeps find it from the seed). */
  readonly destination: () => Uint8Array | null;
  /** The fee rate for justice transactions (sat per 1000 weight). */
  readonly feerate: () => number;
  readonly log: (level: "warn", message: string) => void;
  /** A signed justice transaction for the revoked commitment `commitmentTxid` (internal byte order). */
  readonly onJustice: (commitmentTxid: Uint8Array, justiceTx: Uint8Array) => void;
}

/** The lowest fee rate relayed (sat per 1000 weight). */
const FEERATE_FLOOR = 253;

/** The unsigned justice transaction of `commitment` and what it spends, or null when it has no `to_local`. */
const unsignedJustice = (
  commitment: ldk.CommitmentTransaction,
  feerate: number,
  destination: Uint8Array,
): { tx: Uint8Array; value: bigint; txid: Uint8Array } | null => {
  const trusted = commitment.trust();
  const index = trusted.revokeable_output_index();
  if (!(index instanceof ldk.Option_usizeZ_Some)) return null;
  const built = Transaction.fromRaw(trusted.built_transaction().get_transaction(), {
    allowUnknownOutputs: true,
    allowUnknownInputs: true,
    disableScriptCheck: true,
  });
  const value = built.getOutput(Number(index.some)).amount;
  if (value === undefined) return null;
  const tx = trusted.build_to_local_justice_tx(BigInt(Math.max(feerate, FEERATE_FLOOR)), destination);
  if (!(tx instanceof ldk.Result_TransactionNoneZ_OK)) return null;
  return { tx: tx.res, value, txid: trusted.txid() };
};

/** The persister's look at each monitor: justice transactions for commitments the partner just revoked. */
export const justiceWatch = (
  deps: JusticeDeps,
): ((monitor: ldk.ChannelMonitor, update: ldk.ChannelMonitorUpdate | null) => void) => {
  /** The partner's commitments not yet revoked, by channel. */
  const waiting = new Map<string, ldk.CommitmentTransaction[]>();
  return (monitor, update) => {
    const channel = hex.encode(monitor.channel_id().get_a());
    let queue = waiting.get(channel);
    if (!queue) {
      // The channel's first commitment, seen once per run (a revoked one is sent again: the tower says so).
      queue = [];
      const first = monitor.initial_counterparty_commitment_tx();
      if (first instanceof ldk.CommitmentTransaction) queue.push(first);
    }
    if (update) queue.push(...monitor.counterparty_commitment_txs_from_update(update));
    if (queue.length === 0) {
      waiting.set(channel, queue);
      return;
    }
    const destination = deps.destination();
    if (!destination) return;
    const left: ldk.CommitmentTransaction[] = [];
    for (const commitment of queue) {
      const justice = unsignedJustice(commitment, deps.feerate(), destination);
      if (!justice) continue;
      const signed = monitor.sign_to_local_justice_tx(
        justice.tx,
        0,
        justice.value,
        commitment.commitment_number(),
      );
      if (signed instanceof ldk.Result_TransactionNoneZ_OK) deps.onJustice(justice.txid, signed.res);
      else left.push(commitment);
    }
    // At most the partner's current commitment and the one being replaced wait; anything older is gone.
    waiting.set(channel, left.slice(-2));
  };
};
