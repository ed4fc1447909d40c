/**
 * The lightning node's view of the chain, over the same Esplora API as the on-chain wallet: LDK's `Filter`
 * (what to watch), its `Confirm` sync (confirmations, reorgs, the best block), a fee estimator fed from
 * `/fee-estimates`, and a broadcaster. Callbacks from LDK are synchronous and must never throw; anything
 * that needs the network is queued and reported through `log`.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { type EsploraClient, EsploraError } from "../onchain/esplora";

/** Transaction and block ids: LDK keeps them in internal byte order, Esplora shows them reversed. */
export const displayHex = (internal: Uint8Array): string => hex.encode(internal.slice().reverse());
export const internalBytes = (display: string): Uint8Array => hex.decode(display).reverse();

/**
 * An LDK funding outpoint as "txid:vout", or null for none. The bindings answer an absent one (a channel not
 * funded yet, or closed before it was) with an outpoint whose txid is all zeros, never with null.
 */
export const outpointText = (txo: ldk.OutPoint | null | undefined): string | null => {
  const txid = txo?.get_txid();
  if (!txo || !txid || txid.every((b) => b === 0)) return null;
  return `${displayHex(txid)}:${txo.get_index()}`;
};

/** The floor every bitcoin node relays at: 1 sat/vB = 253 sat per 1000 weight units. */
export const MIN_FEERATE_PER_KW = 253;

export type Log = (level: "debug" | "info" | "warn" | "error", message: string) => void;

interface WatchedTx {
  readonly txid: string;
}
interface WatchedOutput {
  readonly txid: string;
  readonly vout: number;
}

export class EsploraChain {
  private readonly txs = new Map<string, WatchedTx>();
  private readonly outputs = new Map<string, WatchedOutput>();
  /**
   * Watched outputs no longer looked up because their spend is confirmed, by the spend's id, kept while LDK
   * could still hear of a reorg of that spend (it lists the spend as relevant): a reorg watches them again.
   */
  private readonly spentOutputs = new Map<string, WatchedOutput[]>();
  /** Sat per 1000 weight by confirmation target, refreshed on every sync. */
  private fees = { fast: MIN_FEERATE_PER_KW, normal: MIN_FEERATE_PER_KW, slow: MIN_FEERATE_PER_KW };
  private tip: string | null = null;
  private syncing: Promise<void> | null = null;
  private readonly pendingBroadcasts = new Map<string, string>();

  readonly filter: ldk.Filter;
  readonly feeEstimator: ldk.FeeEstimator;
  readonly broadcaster: ldk.BroadcasterInterface;

  constructor(
    readonly client: EsploraClient,
    private readonly log: Log,
    /** Told of every transaction the node broadcasts (its id), e.g. to resync the on-chain wallet. */
    private readonly onBroadcast: (txid: string) => void = () => {},
  ) {
    this.filter = ldk.Filter.new_impl({
      register_tx: (txid: Uint8Array, _script: Uint8Array) => {
        try {
          const id = displayHex(txid);
          this.txs.set(id, { txid: id });
        } catch (e) {
          this.log("error", `register_tx: ${String(e)}`);
        }
      },
      register_output: (output: ldk.WatchedOutput) => {
        try {
          const op = output.get_outpoint();
          const txid = displayHex(op.get_txid());
          this.outputs.set(`${txid}:${op.get_index()}`, { txid, vout: op.get_index() });
        } catch (e) {
          this.log("error", `register_output: ${String(e)}`);
        }
      },
    } as ldk.FilterInterface);
    this.feeEstimator = ldk.FeeEstimator.new_impl({
      get_est_sat_per_1000_weight: (target: ldk.ConfirmationTarget) => {
        try {
          return this.feeFor(target);
        } catch {
          return MIN_FEERATE_PER_KW;
        }
      },
    } as ldk.FeeEstimatorInterface);
    this.broadcaster = ldk.BroadcasterInterface.new_impl({
      broadcast_transactions: (txs: Uint8Array[]) => {
        for (const tx of txs) {
          try {
            this.broadcast(hex.encode(tx));
          } catch (e) {
            this.log("error", `broadcast: ${String(e)}`);
          }
        }
      },
    } as ldk.BroadcasterInterfaceInterface);
  }

  feeFor(target: ldk.ConfirmationTarget): number {
    const T = ldk.ConfirmationTarget;
    switch (target) {
      case T.LDKConfirmationTarget_MaximumFeeEstimate:
      case T.LDKConfirmationTarget_UrgentOnChainSweep:
        return Math.max(this.fees.fast * 2, MIN_FEERATE_PER_KW);
      case T.LDKConfirmationTarget_MinAllowedAnchorChannelRemoteFee:
      case T.LDKConfirmationTarget_MinAllowedNonAnchorChannelRemoteFee:
        // Never disagree with a peer about fees low enough to relay: such disagreements force-close channels.
        return MIN_FEERATE_PER_KW;
      case T.LDKConfirmationTarget_AnchorChannelFee:
      case T.LDKConfirmationTarget_ChannelCloseMinimum:
      case T.LDKConfirmationTarget_OutputSpendingFee:
        return this.fees.slow;
      default:
        return this.fees.normal;
    }
  }

  /** Broadcasts now and keeps retrying on later syncs until the server accepts it. */
  broadcast(txHex: string): void {
    const attempt = async () => {
      try {
        const txid = await this.client.broadcast(txHex);
        this.pendingBroadcasts.delete(txHex);
        this.log("info", `broadcast ${txid}`);
        this.onBroadcast(txid);
      } catch (e) {
        const status = e instanceof EsploraError ? e.status : undefined;
        if (status === undefined || status >= 500) {
          // The server could not be asked: try again on the next sync.
          this.pendingBroadcasts.set(txHex, String(e));
          this.log("warn", `broadcast failed, will retry: ${String(e)}`);
        } else {
          // Already known, or refused (a conflict, not final yet): LDK rebroadcasts what it still needs.
          this.pendingBroadcasts.delete(txHex);
          this.log("debug", `broadcast refused: ${String(e)}`);
        }
      }
    };
    void attempt();
  }

  private async refreshFees(): Promise<void> {
    const est = await this.client.feeEstimates();
    const perKw = (blocks: string, fallback: number) =>
      Math.max(MIN_FEERATE_PER_KW, Math.ceil((est[blocks] ?? fallback) * 250));
    this.fees = { fast: perKw("1", 2), normal: perKw("6", 1), slow: perKw("144", 1) };
  }

  /**
   * Brings every `Confirm` up to the chain tip: unconfirms what a reorg removed, reports the new tip, then
   * the confirmations of watched transactions and of spends of watched outputs, oldest block first.
   * Concurrent calls share one run.
   */
  sync(confirmables: readonly ldk.Confirm[]): Promise<void> {
    this.syncing ??= this.runSync(confirmables).finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async runSync(confirmables: readonly ldk.Confirm[]): Promise<void> {
    // Independent lookups go out together; LDK hears of their answers in chain order (unconfirmed, new
    // tip, confirmed, oldest block first), and only once the fee estimates it may ask for are fresh.
    const fees = this.refreshFees().catch((e) => this.log("warn", `fee estimates: ${String(e)}`));
    for (const [txHex] of this.pendingBroadcasts) this.broadcast(txHex);
    for (let round = 0; round < 5; round++) {
      const tip = await this.client.tipHash();
      const relevant = new Map<string, string | null>();
      for (const c of confirmables) {
        for (const r of c.get_relevant_txids()) {
          const blockHash = r.get_c();
          relevant.set(
            displayHex(r.get_a()),
            blockHash instanceof ldk.Option_ThirtyTwoBytesZ_Some ? displayHex(blockHash.some) : null,
          );
        }
      }
      const [gone, newTip, found] = await Promise.all([
        this.reorged(relevant),
        tip === this.tip ? null : this.headerAt(tip),
        this.confirmedWatched(relevant),
      ]);
      await fees;
      // 1. Transactions whose block left the best chain.
      for (const txid of gone) {
        this.log("info", `reorg: ${txid} is no longer confirmed`);
        for (const c of confirmables) c.transaction_unconfirmed(internalBytes(txid));
      }
      // 2. The new tip.
      if (newTip) for (const c of confirmables) c.best_block_updated(newTip.header, newTip.height);
      // 3. Confirmations of what LDK watches.
      for (const { header, txdata, height } of found.confirmed)
        for (const c of confirmables) c.transactions_confirmed(header, txdata, height);
      this.forgetConfirmed(relevant, gone, found);
      this.tip = tip;
      // A block found meanwhile means another round; otherwise done.
      if ((await this.client.tipHash()) === tip) return;
    }
  }

  /** Which of LDK's confirmed transactions are no longer in the best chain. */
  private async reorged(relevant: ReadonlyMap<string, string | null>): Promise<string[]> {
    const checks = await Promise.all(
      [...relevant].map(async ([txid, blockHash]) => {
        const stillThere = blockHash
          ? (await this.client.blockStatus(blockHash)).in_best_chain
          : (await this.client.txStatus(txid))?.confirmed === true;
        return stillThere ? null : txid;
      }),
    );
    return checks.filter((txid): txid is string => txid !== null);
  }

  private async headerAt(block: string): Promise<{ header: Uint8Array; height: number }> {
    const [header, status] = await Promise.all([
      this.client.blockHeader(block),
      this.client.blockStatus(block),
    ]);
    return { header: hex.decode(header), height: status.height ?? (await this.client.tipHeight()) };
  }

  /**
   * Watched transactions, and spends of watched outputs, confirmed in a block LDK has not been told of,
   * oldest first, each with its block header and position.
   */
  private async confirmedWatched(relevant: ReadonlyMap<string, string | null>) {
    type At = { txid: string; height: number; block: string };
    const confirmedAt = async (txid: string): Promise<At | null> => {
      const status = await this.client.txStatus(txid);
      return status?.confirmed && status.block_hash && status.block_height !== undefined
        ? { txid, height: status.block_height, block: status.block_hash }
        : null;
    };
    const txs = [...this.txs.values()].filter(({ txid }) => !relevant.has(txid));
    const outputs = [...this.outputs.values()];
    /** Watched outputs found spent, by their key: the spend's id. */
    const spends = new Map<string, string>();
    const lookups = await Promise.all([
      ...txs.map(({ txid }) => confirmedAt(txid)),
      ...outputs.map(async ({ txid, vout }) => {
        const spend = await this.client.outspend(txid, vout);
        if (!spend?.spent || !spend.txid) return null;
        spends.set(`${txid}:${vout}`, spend.txid);
        if (relevant.has(spend.txid)) return null;
        return confirmedAt(spend.txid);
      }),
    ]);
    const found = new Map<string, At>();
    for (const at of lookups) if (at) found.set(at.txid, at);
    const ordered = [...found.values()].sort((a, b) => a.height - b.height);
    const confirmed = await Promise.all(
      ordered.map(async (at) => {
        const [header, proof, raw] = await Promise.all([
          this.client.blockHeader(at.block),
          this.client.merkleProof(at.txid),
          this.client.txHex(at.txid),
        ]);
        if (!raw) return null;
        return {
          txid: at.txid,
          header: hex.decode(header),
          txdata: [ldk.TwoTuple_usizeTransactionZ.constructor_new(proof.pos, hex.decode(raw))],
          height: at.height,
        };
      }),
    );
    return { confirmed: confirmed.filter((c) => c !== null), spends };
  }

  /**
   * Stops looking up what LDK now holds as confirmed, as LDK's own Esplora sync does: a watched transaction
   * once confirmed, a watched output once its spend is. LDK lists them as relevant while a reorg could undo
   * them, and a reorg (`gone`) watches them again. Without this every channel the node ever closed would
   * cost lookups on every sync for as long as it runs.
   */
  private forgetConfirmed(
    relevant: ReadonlyMap<string, string | null>,
    gone: readonly string[],
    found: { confirmed: readonly { txid: string }[]; spends: ReadonlyMap<string, string> },
  ): void {
    for (const txid of gone) {
      this.txs.set(txid, { txid });
      for (const output of this.spentOutputs.get(txid) ?? [])
        this.outputs.set(`${output.txid}:${output.vout}`, output);
      this.spentOutputs.delete(txid);
    }
    const unconfirmed = new Set(gone);
    const confirmed = new Set([...relevant.keys(), ...found.confirmed.map((c) => c.txid)]);
    for (const txid of unconfirmed) confirmed.delete(txid);
    for (const txid of [...this.txs.keys()]) if (confirmed.has(txid)) this.txs.delete(txid);
    for (const [key, spend] of found.spends) {
      const output = this.outputs.get(key);
      if (!output || !confirmed.has(spend)) continue;
      this.outputs.delete(key);
      this.spentOutputs.set(spend, [...(this.spentOutputs.get(spend) ?? []), output]);
    }
    // Spends LDK no longer lists are past any reorg it acts on: their outputs are done with.
    for (const spend of [...this.spentOutputs.keys()])
      if (!confirmed.has(spend)) this.spentOutputs.delete(spend);
  }
}
