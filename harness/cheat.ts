/**
 * A world node that cheats on demand: it keeps a copy of every channel monitor it ever wrote, and on
 * `POST /ln/cheat {channel_id}` publishes the holder commitment of an old copy, a state the partner has
 * revoked (`ChannelMonitor.broadcast_latest_holder_commitment_txn` on that copy, never on the live one). The
 * partner's node (or its watchtower) is expected to take the whole channel with a justice transaction.
 * Hostile by design: it lives here, never in services/.
 */
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import * as ldk from "lightningdevkit";
import type { EsploraChain } from "../src/engine/lightning/chain";
import { type BlobWrite, MemoryBlobStore, MONITOR_PREFIX } from "../src/engine/lightning/store";

/** One written state of a channel's monitor: its bytes and what the node could claim if it closed then. */
interface MonitorCopy {
  readonly bytes: Uint8Array;
  readonly at: number;
}

/** A node's store that also keeps every monitor it ever wrote, by key (`ln/monitor/<txid>_<vout>`). */
export class HistoryStore extends MemoryBlobStore {
  readonly history = new Map<string, MonitorCopy[]>();
  override put = async (writes: readonly BlobWrite[]) => {
    for (const w of writes) {
      if (w.value === null || !w.key.startsWith(MONITOR_PREFIX)) continue;
      const copies = this.history.get(w.key) ?? [];
      copies.push({ bytes: w.value.slice(), at: Date.now() });
      this.history.set(w.key, copies);
    }
    for (const w of writes) {
      if (w.value === null) this.data.delete(w.key);
      else this.data.set(w.key, w.value.slice());
    }
  };
}

export interface CheatResult {
  /** The revoked commitment transaction published. */
  readonly txid: string;
  /** Which copy (0 = the channel's first) was published, of how many kept. */
  readonly index: number;
  readonly copies: number;
  /** What the cheat would have kept, had nobody punished it (its side of that old state). */
  readonly stolen_sats: string;
}

const quietLogger = () => ldk.Logger.new_impl({ log: () => undefined } as unknown as ldk.LoggerInterface);

/** The node's balance in the state a monitor copy holds (what it would claim closing with it). */
const holderClaim = (monitor: ldk.ChannelMonitor): bigint => {
  let sats = 0n;
  for (const b of monitor.get_claimable_balances())
    if (b instanceof ldk.Balance_ClaimableOnChannelClose) sats += b.amount_satoshis;
  return sats;
};

export class Cheater {
  private readonly keys: ldk.KeysManager;

  constructor(
    seed: Uint8Array,
    private readonly store: HistoryStore,
    private readonly chain: EsploraChain,
  ) {
    const now = Date.now();
    this.keys = ldk.KeysManager.constructor_new(seed, BigInt(Math.floor(now / 1000)), (now % 1000) * 1e6);
  }

  private read(bytes: Uint8Array): ldk.ChannelMonitor {
    const r = ldk.UtilMethods.constructor_C2Tuple_ThirtyTwoBytesChannelMonitorZ_read(
      bytes,
      this.keys.as_EntropySource(),
      this.keys.as_SignerProvider(),
    );
    if (!(r instanceof ldk.Result_C2Tuple_ThirtyTwoBytesChannelMonitorZDecodeErrorZ_OK))
      throw new Error("A kept monitor could not be read");
    return r.res.get_b();
  }

  /** The kept copies of the channel funded at `outpoint` (`txid:vout`). */
  copies(outpoint: string): readonly MonitorCopy[] {
    return this.store.history.get(`${MONITOR_PREFIX}${outpoint.replace(":", "_")}`) ?? [];
  }

  /** The kept copies (by index) that pay this node otherwise than the latest: states it has revoked. */
  revoked(outpoint: string): number[] {
    const copies = this.copies(outpoint);
    if (copies.length < 2) return [];
    const latest = holderClaim(this.read(copies.at(-1)!.bytes));
    return copies
      .slice(0, -1)
      .map((c, i) => (holderClaim(this.read(c.bytes)) === latest ? -1 : i))
      .filter((i) => i >= 0);
  }

  /** The commitment transaction of the old state `cheat` would publish (copy `index`, or its default). */
  oldState(outpoint: string, index?: number): { commitment: Transaction; result: CheatResult } {
    const copies = this.copies(outpoint);
    if (copies.length < 2) throw new Error("No older state of that channel is kept");
    const latest = holderClaim(this.read(copies.at(-1)!.bytes));
    let chosen = index ?? -1;
    let best = latest;
    if (index === undefined)
      copies.slice(0, -1).forEach((c, i) => {
        const claim = holderClaim(this.read(c.bytes));
        if (claim > best || (chosen >= 0 && claim === best)) {
          best = claim;
          chosen = i;
        }
      });
    if (chosen < 0 || chosen >= copies.length - 1)
      throw new Error("No older state of that channel pays this node more than the latest");
    const monitor = this.read(copies[chosen]!.bytes);
    const txs: Uint8Array[] = [];
    const broadcaster = ldk.BroadcasterInterface.new_impl({
      broadcast_transactions: (out: Uint8Array[]) => {
        for (const t of out) txs.push(t.slice());
      },
    } as ldk.BroadcasterInterfaceInterface);
    monitor.broadcast_latest_holder_commitment_txn(broadcaster, this.chain.feeEstimator, quietLogger());
    const [fundingTxid, vout] = outpoint.split(":");
    const commitment = txs
      .map((t) => Transaction.fromRaw(t, { allowUnknownOutputs: true, allowUnknownInputs: true }))
      .find((t) => {
        const input = t.getInput(0);
        return (
          input.txid !== undefined && hex.encode(input.txid) === fundingTxid && input.index === Number(vout)
        );
      });
    if (!commitment) throw new Error("The old state gave no commitment transaction");
    return {
      commitment,
      result: {
        txid: commitment.id,
        index: chosen,
        copies: copies.length,
        stolen_sats: holderClaim(monitor).toString(),
      },
    };
  }

  /**
   * Publishes an old state of the channel funded at `outpoint`: copy `index`, or by default the newest copy
   * in which this node held the most (the state a thief would choose: of equal ones, the newest has the
   * money settled on its side rather than in a payment still in flight). Refused when every kept state pays
   * this node what the latest does (nothing revoked to publish).
   */
  async cheat(outpoint: string, index?: number): Promise<CheatResult> {
    const { commitment, result } = this.oldState(outpoint, index);
    await this.chain.client.broadcast(commitment.hex);
    return result;
  }
}
