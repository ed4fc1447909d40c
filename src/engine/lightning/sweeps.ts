/**
 * Sweeps: outputs LDK hands us when channels close (and those the seed alone can find after a restore) are
 * kept in the store and spent to the on-chain wallet once they can be, then forgotten.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import * as ldk from "lightningdevkit";
import { claimsIn } from "./breach";
import { displayHex, internalBytes } from "./chain";
import { type NodeCore, random32 } from "./node-core";
import { SWEEP_PREFIX } from "./store";

/** Sweeps of outputs found on the chain by the seed's scripts, not reported by a channel. */
const RECOVERED = "recovered";
/** Outputs LDK reported without a channel. */
const UNKNOWN = "unknown";
const text = new TextEncoder();
const untext = new TextDecoder();

export class Sweeps {
  constructor(private readonly core: NodeCore) {}

  /** A sweep asked for once the writes queued now are durable (several channels' outputs come at once). */
  private soon: ReturnType<typeof setTimeout> | null = null;

  /**
   * Outputs LDK handed that no sweep has read yet (their sats, by the key saving them): still to come home,
   * though LDK's claimable balances no longer list them.
   */
  private readonly handed = new Map<string, bigint>();

  /** Keeps LDK's spendable outputs of `channel` until they are swept, then sweeps. */
  keep(channel: string, descriptors: readonly Uint8Array[]): void {
    const key = `${SWEEP_PREFIX}${channel}/${hex.encode(random32().slice(0, 8))}`;
    this.handed.set(
      key,
      descriptors.reduce((n, d) => n + (outputOf(d)?.sats ?? 0n), 0n),
    );
    void this.core.commit.enqueue([{ key, value: encodeList(descriptors) }]);
    // The outputs LDK hands over together (ours and a punished partner's, matured in one sync) are swept
    // together: the sweep starts after every one of them is saved, not after the first.
    this.soon ??= setTimeout(() => {
      this.soon = null;
      void this.core.commit.enqueue([], () => void this.sweep());
    }, 0);
  }

  private sweeping: Promise<void> | null = null;
  /** The pass asked for while one runs: outputs saved meanwhile (the recovery scan's) are not left waiting. */
  private again: Promise<void> | null = null;

  /** Spends every saved spendable output to our on-chain wallet; kept until a spend is accepted. */
  sweep(): Promise<void> {
    if (this.sweeping) {
      this.again ??= this.sweeping
        .catch(() => undefined)
        .then(() => {
          this.again = null;
          return this.sweep();
        });
      return this.again;
    }
    this.sweeping = this.sweepSaved().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** The saved outputs by the channel they came from, each outpoint once, with the keys that hold them. */
  private async saved(): Promise<Map<string, SavedOutputs>> {
    const byChannel = new Map<string, SavedOutputs>();
    for (const key of await this.core.opts.store.keys(SWEEP_PREFIX)) {
      this.handed.delete(key);
      const bytes = await this.core.opts.store.get(key);
      if (!bytes) continue;
      const channel = key.slice(SWEEP_PREFIX.length).split("/")[0]!;
      const group: SavedOutputs = byChannel.get(channel) ?? { keys: [], outputs: new Map() };
      byChannel.set(channel, group);
      group.keys.push(key);
      for (const d of decodeList(bytes)) addOutput(group, d);
    }
    return byChannel;
  }

  /**
   * Adds to `groups` what sits at the seed's fixed scripts, unsaved: a watchtower's justice transaction pays
   * a punished partner's side there, and LDK may hand it after the channel's own outputs, or not at all.
   * Swept with them, so a channel is never told home while part of it waits on the chain.
   */
  private async withStaticOutputs(groups: Map<string, SavedOutputs>): Promise<void> {
    for (const [channel, descriptors] of await this.staticOutputs()) {
      const group: SavedOutputs = groups.get(channel) ?? { keys: [], outputs: new Map() };
      groups.set(channel, group);
      for (const d of descriptors) addOutput(group, d);
    }
  }

  /**
   * One transaction per channel spends what its saved outputs still hold to the on-chain wallet. An output
   * something else spent already (the wallet's watchtower took a punished partner's side to the same
   * script, found again by the recovery scan) is dropped, so nothing is counted twice. What was swept is
   * told once the pass is over, with what the closed channels still have to bring back.
   */
  private async sweepSaved(): Promise<void> {
    const swept: { txid: string; sats: bigint; channel: string }[] = [];
    let waiting = 0n;
    const groups = await this.saved();
    if (groups.size > 0) await this.withStaticOutputs(groups);
    for (const [channel, group] of groups) {
      const unspent: ldk.SpendableOutputDescriptor[] = [];
      let unspentSats = 0n;
      let spentBy: string | null = null;
      for (const [outpoint, { descriptor, sats }] of group.outputs) {
        const [txid, vout] = outpoint.split(":") as [string, string];
        const spend = await this.core.opts.chain.client.outspend(txid, Number(vout));
        if (spend?.spent) {
          this.core.opts.log("info", `output ${outpoint} of ${channel} was spent already`);
          spentBy ??= spend.txid ?? null;
          continue;
        }
        unspent.push(descriptor);
        unspentSats += sats;
      }
      const forget = group.keys.map((key) => ({ key, value: null }));
      if (unspent.length === 0) {
        await this.core.commit.enqueue(forget);
        // Nothing more comes of it, and nothing is counted again; told still, so the channel can be home.
        if (spentBy !== null) swept.push({ txid: spentBy, sats: 0n, channel });
        continue;
      }
      // Together in one transaction; when that cannot go yet (one output's timelock is not over), each
      // output alone, so what can come home now does not wait for the rest.
      const alone = unspent.length > 1 ? unspent.map((d) => [d]) : [];
      let left = unspent.length;
      for (const some of [unspent, ...alone]) {
        const spend = await this.spend(channel, some);
        if (spend === null) continue;
        swept.push({ ...spend, channel });
        left -= some.length;
        if (some === unspent) break;
      }
      if (left === 0) await this.core.commit.enqueue(forget);
      else waiting += unspentSats;
    }
    const claimsLeftSats = this.claimsLeft() + waiting;
    for (const s of swept)
      this.core.emit({
        type: "outputs_swept",
        txid: s.txid,
        sats: s.sats,
        channelIds: s.channel === UNKNOWN || s.channel === RECOVERED ? [] : [s.channel],
        claimsLeftSats,
      });
  }

  /** Spends `descriptors` to the on-chain wallet in one transaction: what it swept, or null when it cannot yet. */
  private async spend(
    channel: string,
    descriptors: ldk.SpendableOutputDescriptor[],
  ): Promise<{ txid: string; sats: bigint } | null> {
    const script = await this.core.opts.sweepScript();
    const feerate = this.core.opts.chain.feeFor(
      ldk.ConfirmationTarget.LDKConfirmationTarget_OutputSpendingFee,
    );
    const tx = this.core.keys
      .as_OutputSpender()
      .spend_spendable_outputs(descriptors, [], script, feerate, ldk.Option_u32Z.constructor_none());
    if (!(tx instanceof ldk.Result_TransactionNoneZ_OK)) {
      this.core.opts.log("warn", `outputs of ${channel} cannot be swept yet`);
      return null;
    }
    try {
      await this.core.opts.chain.client.broadcast(hex.encode(tx.res));
    } catch (e) {
      // Swept before (the answer was lost): done. Otherwise a timelock is not over yet: try again later.
      if (!/already|inputs-spent|missingorspent/i.test(String(e))) {
        this.core.opts.log("info", `sweep of ${channel} waits: ${String(e)}`);
        return null;
      }
    }
    const spend = Transaction.fromRaw(tx.res, { allowUnknownOutputs: true });
    return { txid: spend.id, sats: sumOutputs(spend) };
  }

  /**
   * What the closed channels still have to bring back, as their monitors see it now: a channel whose outputs
   * come home in several sweeps (a punished partner's side a block after ours) is home once this is 0.
   * Outputs LDK handed that a sweep has yet to read count too.
   */
  private claimsLeft(): bigint {
    const open = this.core.manager.list_channels();
    let left = claimsIn(this.core.chainMonitor.get_claimable_balances(open)).totalSats;
    for (const sats of this.handed.values()) left += sats;
    return left;
  }

  /**
   * What the seed alone can find: cooperative closes and LDK's own sweeps pay to the key manager's fixed
   * destination and shutdown scripts, so their unspent outputs are swept to the wallet even when the
   * channel state is gone (a restore from the 12 words). Outputs the node already knows are swept once.
   * One a known channel's close (or a justice transaction against it) paid is counted as that channel's.
   */
  async recoverStaticOutputs(): Promise<number> {
    const byChannel = await this.staticOutputs();
    if (byChannel.size === 0) return 0;
    const writes = [...byChannel].map(([channel, descriptors]) => ({
      key: `${SWEEP_PREFIX}${channel}/${hex.encode(random32().slice(0, 8))}`,
      value: encodeList(descriptors),
    }));
    await this.core.commit.enqueue(writes);
    await this.sweep();
    return [...byChannel.values()].reduce((n, d) => n + d.length, 0);
  }

  /** The unspent outputs at the seed's fixed scripts, as descriptors by the known channel that paid them. */
  private async staticOutputs(): Promise<Map<string, Uint8Array[]>> {
    const signer = this.core.keys.as_SignerProvider();
    const scripts: Uint8Array[] = [];
    const destination = signer.get_destination_script(new Uint8Array(32));
    if (destination instanceof ldk.Result_CVec_u8ZNoneZ_OK) scripts.push(destination.res);
    const shutdown = signer.get_shutdown_scriptpubkey();
    if (shutdown instanceof ldk.Result_ShutdownScriptNoneZ_OK) scripts.push(shutdown.res.into_inner());
    const byChannel = new Map<string, Uint8Array[]>();
    // The known channels by their funding outpoint (txid:vout), read once for the whole scan.
    const funding = new Map<string, string>();
    for (const m of this.core.chainMonitor.list_monitors()) {
      const at = m.get_a();
      funding.set(`${displayHex(at.get_txid())}:${at.get_index()}`, hex.encode(m.get_b().get_a()));
    }
    for (const script of scripts) {
      const scripthash = hex.encode(sha256(script).reverse());
      for (const u of await this.core.opts.chain.client.scriptUtxos(scripthash)) {
        const channel = (await this.channelPaying(u.txid, funding)) ?? RECOVERED;
        const list = byChannel.get(channel) ?? [];
        byChannel.set(channel, list);
        list.push(
          ldk.SpendableOutputDescriptor.constructor_static_output(
            ldk.OutPoint.constructor_new(internalBytes(u.txid), u.vout),
            ldk.TxOut.constructor_new(BigInt(u.value), script),
            new Uint8Array(32),
          ).write(),
        );
      }
    }
    return byChannel;
  }

  /**
   * The known channel whose close `txid` is, or whose closing transaction `txid` spends (a justice
   * transaction spends the partner's commitment, which spends the funding output); null when none.
   */
  private async channelPaying(txid: string, funding: ReadonlyMap<string, string>): Promise<string | null> {
    if (funding.size === 0) return null;
    let tx = await this.core.opts.chain.client.tx(txid);
    for (let up = 0; tx && up < 2; up++) {
      const input = tx.vin[0];
      if (!input) return null;
      const channel = funding.get(`${input.txid}:${input.vout}`);
      if (channel) return channel;
      tx = await this.core.opts.chain.client.tx(input.txid);
    }
    return null;
  }
}

/** Outputs saved for one channel: each outpoint's descriptor and value, and the store keys holding them. */
interface SavedOutputs {
  readonly keys: string[];
  readonly outputs: Map<
    string,
    { readonly descriptor: ldk.SpendableOutputDescriptor; readonly sats: bigint }
  >;
}

/** A saved descriptor, decoded: what it spends, once per outpoint. */
const addOutput = (group: SavedOutputs, bytes: Uint8Array): void => {
  const at = outputOf(bytes);
  if (at && !group.outputs.has(at.outpoint)) group.outputs.set(at.outpoint, at);
};

/** A descriptor from its bytes, with the outpoint it spends and the sats it holds; null when unreadable. */
const outputOf = (
  bytes: Uint8Array,
): { descriptor: ldk.SpendableOutputDescriptor; outpoint: string; sats: bigint } | null => {
  const r = ldk.SpendableOutputDescriptor.constructor_read(bytes);
  if (!(r instanceof ldk.Result_SpendableOutputDescriptorDecodeErrorZ_OK)) return null;
  const at = spentFrom(r.res);
  return at ? { descriptor: r.res, ...at } : null;
};

/** The outpoint (display txid:vout) a descriptor spends and the sats it holds. */
const spentFrom = (d: ldk.SpendableOutputDescriptor): { outpoint: string; sats: bigint } | null => {
  const parts =
    d instanceof ldk.SpendableOutputDescriptor_StaticOutput
      ? { outpoint: d.outpoint, output: d.output }
      : d instanceof ldk.SpendableOutputDescriptor_DelayedPaymentOutput
        ? { outpoint: d.delayed_payment_output.get_outpoint(), output: d.delayed_payment_output.get_output() }
        : d instanceof ldk.SpendableOutputDescriptor_StaticPaymentOutput
          ? { outpoint: d.static_payment_output.get_outpoint(), output: d.static_payment_output.get_output() }
          : null;
  if (!parts) return null;
  return {
    outpoint: `${displayHex(parts.outpoint.get_txid())}:${parts.outpoint.get_index()}`,
    sats: parts.output.value,
  };
};

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
