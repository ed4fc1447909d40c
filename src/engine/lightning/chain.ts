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
    await this.refreshFees().catch((e) => this.log("warn", `fee estimates: ${String(e)}`));
    for (const [txHex] of this.pendingBroadcasts) this.broadcast(txHex);
    for (let round = 0; round < 5; round++) {
      const tip = await this.client.tipHash();
      // 1. Transactions whose block left the best chain.
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
      for (const [txid, blockHash] of relevant) {
        const stillThere = blockHash
          ? (await this.client.blockStatus(blockHash)).in_best_chain
          : (await this.client.txStatus(txid))?.confirmed === true;
        if (!stillThere) {
          this.log("info", `reorg: ${txid} is no longer confirmed`);
          for (const c of confirmables) c.transaction_unconfirmed(internalBytes(txid));
        }
      }
      // 2. The new tip.
      if (tip !== this.tip) {
        const header = hex.decode(await this.client.blockHeader(tip));
        const height = (await this.client.blockStatus(tip)).height ?? (await this.client.tipHeight());
        for (const c of confirmables) c.best_block_updated(header, height);
      }
      // 3. Confirmations of what LDK watches.
      const found = new Map<string, { height: number; block: string }>();
      for (const { txid } of this.txs.values()) {
        if (relevant.has(txid)) continue;
        const status = await this.client.txStatus(txid);
        if (status?.confirmed && status.block_hash && status.block_height !== undefined)
          found.set(txid, { height: status.block_height, block: status.block_hash });
      }
      for (const { txid, vout } of this.outputs.values()) {
        const spend = await this.client.outspend(txid, vout);
        if (!spend?.spent || !spend.txid || relevant.has(spend.txid)) continue;
        const status = await this.client.txStatus(spend.txid);
        if (status?.confirmed && status.block_hash && status.block_height !== undefined)
          found.set(spend.txid, { height: status.block_height, block: status.block_hash });
      }
      const ordered = [...found].sort((a, b) => a[1].height - b[1].height);
      for (const [txid, at] of ordered) {
        const [header, proof, raw] = await Promise.all([
          this.client.blockHeader(at.block),
          this.client.merkleProof(txid),
          this.client.txHex(txid),
        ]);
        if (!raw) continue;
        const txdata = [ldk.TwoTuple_usizeTransactionZ.constructor_new(proof.pos, hex.decode(raw))];
        for (const c of confirmables) c.transactions_confirmed(hex.decode(header), txdata, at.height);
      }
      this.tip = tip;
      // A block found meanwhile means another round; otherwise done.
      if ((await this.client.tipHash()) === tip) return;
    }
  }
}
