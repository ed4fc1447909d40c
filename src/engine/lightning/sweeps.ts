/**
 * Sweeps: outputs LDK hands us when channels close (and those the seed alone can find after a restore) are
 * kept in the store and spent to the on-chain wallet once they can be, then forgotten.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import * as ldk from "lightningdevkit";
import { claimsIn } from "./breach";
import { internalBytes } from "./chain";
import { type NodeCore, random32 } from "./node-core";
import { SWEEP_PREFIX } from "./store";

/** Sweeps of outputs found on the chain by the seed's scripts, not reported by a channel. */
const RECOVERED = "recovered";
const text = new TextEncoder();
const untext = new TextDecoder();

export class Sweeps {
  constructor(private readonly core: NodeCore) {}

  /** Keeps LDK's spendable outputs of `channel` until they are swept, then sweeps. */
  keep(channel: string, descriptors: readonly Uint8Array[]): void {
    const key = `${SWEEP_PREFIX}${channel}/${hex.encode(random32().slice(0, 8))}`;
    void this.core.commit.enqueue([{ key, value: encodeList(descriptors) }], () => void this.sweep());
  }

  private sweeping: Promise<void> | null = null;

  /** Spends every saved spendable output to our on-chain wallet; kept until a spend is accepted. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepSaved().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepSaved(): Promise<void> {
    for (const key of await this.core.opts.store.keys(SWEEP_PREFIX)) {
      const bytes = await this.core.opts.store.get(key);
      if (!bytes) continue;
      const descriptors: ldk.SpendableOutputDescriptor[] = [];
      for (const d of decodeList(bytes)) {
        const r = ldk.SpendableOutputDescriptor.constructor_read(d);
        if (r instanceof ldk.Result_SpendableOutputDescriptorDecodeErrorZ_OK) descriptors.push(r.res);
      }
      const script = await this.core.opts.sweepScript();
      const feerate = this.core.opts.chain.feeFor(
        ldk.ConfirmationTarget.LDKConfirmationTarget_OutputSpendingFee,
      );
      const tx = this.core.keys
        .as_OutputSpender()
        .spend_spendable_outputs(descriptors, [], script, feerate, ldk.Option_u32Z.constructor_none());
      if (!(tx instanceof ldk.Result_TransactionNoneZ_OK)) {
        this.core.opts.log("warn", `outputs in ${key} cannot be swept yet`);
        continue;
      }
      const raw = hex.encode(tx.res);
      const spend = Transaction.fromRaw(tx.res, { allowUnknownOutputs: true });
      const channelId = key.slice(SWEEP_PREFIX.length).split("/")[0]!;
      let done = false;
      try {
        await this.core.opts.chain.client.broadcast(raw);
        done = true;
      } catch (e) {
        // Swept before (the answer was lost): done. Otherwise a timelock is not over yet: try again later.
        done = /already|inputs-spent|missingorspent/i.test(String(e));
        if (!done) this.core.opts.log("info", `sweep of ${key} waits: ${String(e)}`);
      }
      if (!done) continue;
      await this.core.commit.enqueue([{ key, value: null }]);
      this.core.emit({
        type: "outputs_swept",
        txid: spend.id,
        sats: sumOutputs(spend),
        channelIds: channelId === "unknown" ? [] : [channelId],
        claimsLeftSats: this.claimsLeft(),
      });
    }
  }

  /**
   * What the closed channels still have to bring back, as their monitors see it now: a channel whose outputs
   * come home in several sweeps (a punished partner's side a block after ours) is home once this is 0.
   */
  private claimsLeft(): bigint {
    const open = this.core.manager.list_channels();
    return claimsIn(this.core.chainMonitor.get_claimable_balances(open)).totalSats;
  }

  /**
   * What the seed alone can find: cooperative closes and LDK's own sweeps pay to the key manager's fixed
   * destination and shutdown scripts, so their unspent outputs are swept to the wallet even when the
   * channel state is gone (a restore from the 12 words). Outputs the node already knows are swept once.
   */
  async recoverStaticOutputs(): Promise<number> {
    const signer = this.core.keys.as_SignerProvider();
    const scripts: Uint8Array[] = [];
    const destination = signer.get_destination_script(new Uint8Array(32));
    if (destination instanceof ldk.Result_CVec_u8ZNoneZ_OK) scripts.push(destination.res);
    const shutdown = signer.get_shutdown_scriptpubkey();
    if (shutdown instanceof ldk.Result_ShutdownScriptNoneZ_OK) scripts.push(shutdown.res.into_inner());
    const descriptors: Uint8Array[] = [];
    for (const script of scripts) {
      const scripthash = hex.encode(sha256(script).reverse());
      for (const u of await this.core.opts.chain.client.scriptUtxos(scripthash)) {
        descriptors.push(
          ldk.SpendableOutputDescriptor.constructor_static_output(
            ldk.OutPoint.constructor_new(internalBytes(u.txid), u.vout),
            ldk.TxOut.constructor_new(BigInt(u.value), script),
            new Uint8Array(32),
          ).write(),
        );
      }
    }
    if (descriptors.length === 0) return 0;
    const key = `${SWEEP_PREFIX}${RECOVERED}/${hex.encode(random32().slice(0, 8))}`;
    await this.core.commit.enqueue([{ key, value: encodeList(descriptors) }]);
    await this.sweep();
    return descriptors.length;
  }
}

const encodeList = (items: readonly Uint8Array[]): Uint8Array =>
  text.encode(JSON.stringify(items.map((i) => hex.encode(i))));
const decodeList = (bytes: Uint8Array): Uint8Array[] =>
  (JSON.parse(untext.decode(bytes)) as string[]).map((h) => hex.decode(h));

/** Total of a transaction's outputs. */
const sumOutputs = (tx: Transaction): bigint => {
  let total = 0n;
  for (let i = 0; i < tx.outputsLength; i++) total += tx.getOutput(i).amount ?? 0n;
  return total;
};
