/**
 * The regtest chain: a bcoin chain, mempool and miner in memory, with the indexes an Esplora API needs
 * kept in memory too (transactions by id, by output script, and who spent what), plus a faucet key that
 * receives every block reward it mines.
 */
import { createHash } from "node:crypto";
import bcoin from "bcoin";
import type { Block, ChainEntry, Coin, KeyRing, TX } from "bcoin";
import { Address, OutScript } from "@scure/btc-signer";
import { BTC_NETWORKS } from "../src/engine/onchain/networks";

/** Segwit activates at height 432 on bcoin's regtest; the world starts past it. */
export const START_HEIGHT = 440;
const COINBASE_MATURITY = 100;
/** The smallest coin the faucet spends (sats). */
const FAUCET_MIN_COIN = 100_000;
const FAUCET_FEE_RATE = 2000; // sat per 1000 vbytes

export interface Confirmed {
  readonly tx: TX;
  readonly height: number;
  /** Display (reversed) hex. */
  readonly blockHash: string;
  readonly blockTime: number;
  readonly pos: number;
}

export interface Spender {
  readonly txid: string;
  readonly vin: number;
  readonly confirmed: Confirmed | null;
}

const REGTEST = BTC_NETWORKS.regtest;

/** Display hex ↔ bcoin's internal hex (byte-reversed). */
export const flipHex = (h: string): string => Buffer.from(h, "hex").reverse().toString("hex");

/** sha256 of an output script, in natural byte order (Esplora's scripthash is its reverse). */
export const scriptKey = (script: Uint8Array): string => createHash("sha256").update(script).digest("hex");

/** The `bcrt` address of an output script, or null for scripts without one (OP_RETURN, bare). */
export const addressOfScript = (script: Uint8Array): string | null => {
  try {
    return Address(REGTEST).encode(OutScript.decode(script));
  } catch {
    return null;
  }
};

/** The output script of a regtest address (`bcrt1…`, `m…`, `n…`, `2…`); throws when it is not one. */
export const scriptOfAddress = (address: string): Uint8Array =>
  OutScript.encode(Address(REGTEST).decode(address));

export class WorldError extends Error {}

export class World {
  private readonly chain = new bcoin.Chain({ network: "regtest", memory: true });
  private readonly mempool = new bcoin.Mempool({
    network: "regtest",
    chain: this.chain,
    memory: true,
    replaceByFee: true,
  });
  private readonly miner = new bcoin.Miner({ network: "regtest", chain: this.chain, mempool: this.mempool });
  /** Mines blocks on a fork: it has no mempool, so its blocks carry only the reward. */
  private readonly forkMiner = new bcoin.Miner({ network: "regtest", chain: this.chain });
  private readonly faucetKey: KeyRing = bcoin.KeyRing.generate();
  readonly faucetScript: Uint8Array;
  readonly faucetAddress: string;

  private readonly confirmed = new Map<string, Confirmed>();
  private readonly byScript = new Map<string, Set<string>>();
  private readonly spentBy = new Map<string, { txid: string; vin: number }>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Faucet coins spent by signed transactions not yet broadcast (channel fundings). */
  private readonly reserved = new Set<string>();
  /** Transactions of blocks reorganised out, oldest first, waiting to go back to the mempool. */
  private disconnected: TX[] = [];
  /**
   * Transactions the miner leaves out of its blocks (and those spending them): they wait in the mempool
   * however many blocks are mined, as a transaction paying too low a fee does on the real network.
   */
  private readonly held = new Set<string>();

  private constructor() {
    this.faucetKey.witness = true;
    const rb = this.faucetKey.getAddress();
    this.faucetScript = this.scriptOfBcoin(rb);
    this.faucetAddress = addressOfScript(this.faucetScript) ?? "";
  }

  static async start(): Promise<World> {
    const w = new World();
    await w.chain.open();
    await w.mempool.open();
    await w.miner.open();
    await w.forkMiner.open();
    w.chain.on("connect", async (entry: ChainEntry, block: Block) => {
      w.indexBlock(entry, block);
      await w.mempool._addBlock(entry, block.txs);
    });
    w.chain.on("disconnect", async (entry: ChainEntry, block: Block) => {
      w.unindexBlock(block);
      w.disconnected.unshift(...block.txs.slice(1));
      await w.mempool._removeBlock(entry, block.txs);
    });
    w.leaveHeldOut();
    w.chain.on("reorganize", async () => {
      await w.mempool._handleReorg();
    });
    await w.mine(START_HEIGHT);
    return w;
  }

  /** The miner assembles its blocks as usual, then takes out what is held and what spends it. */
  private leaveHeldOut(): void {
    const assemble = this.miner.assemble.bind(this.miner);
    this.miner.assemble = (attempt) => {
      assemble(attempt);
      if (this.held.size === 0) return;
      const out = new Set(this.held);
      // Items come parents first: a child of something left out is left out too.
      attempt.items = attempt.items.filter((item) => {
        const txid = item.tx.txid();
        if (!out.has(txid) && !item.tx.inputs.some((i) => out.has(flipHex(i.prevout.hash)))) return true;
        out.add(txid);
        attempt.fees -= item.fee;
        attempt.weight -= item.tx.getWeight();
        attempt.sigops -= item.sigops;
        return false;
      });
      attempt.refresh();
    };
  }

  /** Keeps `txid` (in the mempool now or later) out of every block mined from now on. */
  hold(txid: string): void {
    if (!/^[0-9a-f]{64}$/.test(txid)) throw new WorldError("A txid is 64 hex characters");
    this.held.add(txid);
  }

  async stop(): Promise<void> {
    await this.serial(async () => {
      await this.forkMiner.close();
      await this.miner.close();
      await this.mempool.close();
      await this.chain.close();
    });
  }

  /** Runs changes to the chain one at a time. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private scriptOfBcoin(a: ReturnType<KeyRing["getAddress"]>): Uint8Array {
    return new Uint8Array(bcoin.Script.fromAddress(a).toRaw());
  }

  private bcoinAddress(address: string) {
    return bcoin.Address.fromScript(bcoin.Script.fromRaw(Buffer.from(scriptOfAddress(address))));
  }

  private indexBlock(entry: ChainEntry, block: Block): void {
    block.txs.forEach((tx, pos) => {
      const txid = tx.txid();
      const c: Confirmed = { tx, height: entry.height, blockHash: entry.rhash(), blockTime: entry.time, pos };
      this.confirmed.set(txid, c);
      for (const key of this.scriptKeysOf(tx)) this.addToScript(key, txid);
      if (tx.isCoinbase()) return;
      tx.inputs.forEach((input, vin) => {
        this.spentBy.set(`${flipHex(input.prevout.hash)}:${input.prevout.index}`, { txid, vin });
      });
    });
  }

  private unindexBlock(block: Block): void {
    for (const tx of [...block.txs].reverse()) {
      const txid = tx.txid();
      for (const key of this.scriptKeysOf(tx)) this.byScript.get(key)?.delete(txid);
      if (!tx.isCoinbase()) {
        for (const input of tx.inputs)
          this.spentBy.delete(`${flipHex(input.prevout.hash)}:${input.prevout.index}`);
      }
      this.confirmed.delete(txid);
    }
  }

  private addToScript(key: string, txid: string): void {
    let set = this.byScript.get(key);
    if (!set) {
      set = new Set();
      this.byScript.set(key, set);
    }
    set.add(txid);
  }

  /** The script keys a transaction touches: its outputs and the outputs its inputs spend. */
  scriptKeysOf(tx: TX): string[] {
    const keys = tx.outputs.map((o) => scriptKey(o.script.toRaw()));
    if (!tx.isCoinbase()) {
      for (const input of tx.inputs) {
        const prev = this.prevout(input.prevout.hash, input.prevout.index);
        if (prev) keys.push(scriptKey(prev.script.toRaw()));
      }
    }
    return [...new Set(keys)];
  }

  /** The output an input spends, from the chain or the mempool. */
  prevout(internalHash: string, index: number) {
    const txid = flipHex(internalHash);
    const tx = this.confirmed.get(txid)?.tx ?? this.mempool.getEntry(internalHash)?.tx;
    return tx?.outputs[index] ?? null;
  }

  // ---- reads ----

  get tip(): ChainEntry {
    return this.chain.tip;
  }

  entry(hashOrHeight: string | number): Promise<ChainEntry | null> {
    return this.chain.getEntry(typeof hashOrHeight === "string" ? flipHex(hashOrHeight) : hashOrHeight);
  }

  block(entry: ChainEntry): Promise<Block | null> {
    return this.chain.getBlock(entry.hash);
  }

  isMain(entry: ChainEntry): Promise<boolean> {
    return this.chain.isMainChain(entry);
  }

  next(entry: ChainEntry): Promise<ChainEntry | null> {
    return this.chain.getNext(entry);
  }

  medianTime(entry: ChainEntry): Promise<number> {
    return this.chain.getMedianTime(entry);
  }

  confirmedTx(txid: string): Confirmed | null {
    return this.confirmed.get(txid) ?? null;
  }

  /** Mempool transactions, newest first. */
  mempoolTxs(): { tx: TX; time: number }[] {
    return [...this.mempool.map.values()]
      .map((e) => ({ tx: e.tx, time: e.time }))
      .sort((a, b) => b.time - a.time);
  }

  mempoolTx(txid: string): TX | null {
    return this.mempool.getEntry(flipHex(txid))?.tx ?? null;
  }

  tx(txid: string): { tx: TX; confirmed: Confirmed | null } | null {
    const c = this.confirmed.get(txid);
    if (c) return { tx: c.tx, confirmed: c };
    const m = this.mempoolTx(txid);
    return m ? { tx: m, confirmed: null } : null;
  }

  /** Confirmed transactions touching a script, newest first. */
  confirmedForScript(key: string): Confirmed[] {
    const out: Confirmed[] = [];
    for (const txid of this.byScript.get(key) ?? []) {
      const c = this.confirmed.get(txid);
      if (c) out.push(c);
    }
    return out.sort((a, b) => b.height - a.height || b.pos - a.pos);
  }

  mempoolForScript(key: string): TX[] {
    return this.mempoolTxs()
      .map((e) => e.tx)
      .filter((tx) => this.scriptKeysOf(tx).includes(key));
  }

  /** Who spends an output: a confirmed spender, else one in the mempool, else null. */
  spender(txid: string, vout: number): Spender | null {
    const c = this.spentBy.get(`${txid}:${vout}`);
    if (c) return { ...c, confirmed: this.confirmed.get(c.txid) ?? null };
    for (const { tx } of this.mempoolTxs()) {
      const vin = tx.inputs.findIndex((i) => flipHex(i.prevout.hash) === txid && i.prevout.index === vout);
      if (vin >= 0) return { txid: tx.txid(), vin, confirmed: null };
    }
    return null;
  }

  // ---- changes ----

  /** Mines `n` blocks (with the mempool's transactions) paying the reward to `address` or the faucet. */
  mine(n: number, address?: string): Promise<string[]> {
    return this.serial(async () => {
      const to = address ? this.bcoinAddress(address) : this.faucetKey.getAddress();
      const hashes: string[] = [];
      for (let i = 0; i < n; i++) {
        const block = await this.miner.cpu.mineBlock(null, to);
        const entry = await this.chain.add(block);
        if (!entry) throw new WorldError("The mined block was not accepted");
        hashes.push(entry.rhash());
      }
      return hashes;
    });
  }

  /**
   * Replaces the last `depth` blocks with `depth + 1` empty blocks mined on the block below them, so the
   * chain reorganises; the transactions of the replaced blocks go back to the mempool.
   */
  reorg(depth: number): Promise<string[]> {
    return this.serial(async () => {
      if (depth < 1 || depth >= this.chain.height) throw new WorldError("Reorg depth out of range");
      let prev = await this.chain.getEntry(this.chain.height - depth);
      const hashes: string[] = [];
      for (let i = 0; i <= depth; i++) {
        if (!prev) throw new WorldError("Fork point not found");
        // A fresh key per block keeps each fork block distinct from the block it replaces.
        const block = await this.forkMiner.cpu.mineBlock(prev, bcoin.KeyRing.generate().getAddress());
        await this.chain.add(block);
        prev = await this.chain.getEntry(block.hash("hex"));
        if (prev) hashes.push(prev.rhash());
      }
      await this.readmitDisconnected();
      return hashes;
    });
  }

  /**
   * bcoin's mempool puts a disconnected block's transactions back only when it is not empty; the world
   * does it for every one still valid, as a node does after a reorg.
   */
  private async readmitDisconnected(): Promise<void> {
    const txs = this.disconnected;
    this.disconnected = [];
    for (const tx of txs) {
      if (this.confirmed.has(tx.txid()) || this.mempool.getEntry(tx.hash("hex"))) continue;
      try {
        await this.mempool.addTX(tx);
      } catch {
        // spent by the new chain or no longer final: gone, as on any node
      }
    }
  }

  /** Pays `sats` to `address` from the faucet's mature rewards and change; answers the txid. */
  faucet(address: string, sats: bigint): Promise<string> {
    return this.serial(async () => {
      if (sats < 546n || sats > 2_099_999_997_690_000n) throw new WorldError("Amount out of range");
      const tx = await this.faucetPayment(scriptOfAddress(address), sats);
      await this.mempool.addTX(tx);
      return tx.txid();
    });
  }

  /**
   * A signed transaction paying `sats` to `script` from the faucet's coins, not broadcast: the local
   * lightning node funds its channels with it and broadcasts it itself. Its coins stay reserved.
   */
  fundingTx(script: Uint8Array, sats: bigint): Promise<Buffer> {
    return this.serial(async () => {
      const tx = await this.faucetPayment(script, sats);
      for (const input of tx.inputs)
        this.reserved.add(`${flipHex(input.prevout.hash)}:${input.prevout.index}`);
      return tx.toRaw();
    });
  }

  /**
   * What a sender's replace-by-fee does to a faucet payment still in the mempool: a transaction spending
   * the same coins back to the faucet with a higher fee takes its place. Answers the replacement's txid.
   */
  replace(txid: string): Promise<string> {
    return this.serial(async () => {
      const entry = this.mempool.getEntry(flipHex(txid));
      if (!entry) throw new WorldError("Only a transaction in the mempool can be replaced");
      const mtx = new bcoin.MTX();
      let total = 0;
      for (const input of entry.tx.inputs) {
        const prevTxid = flipHex(input.prevout.hash);
        const prev = this.tx(prevTxid);
        const out = prev?.tx.outputs[input.prevout.index];
        if (!prev || !out || scriptKey(out.script.toRaw()) !== scriptKey(this.faucetScript)) {
          throw new WorldError("Only the faucet's own payments can be replaced");
        }
        mtx.addCoin(bcoin.Coin.fromTX(prev.tx, input.prevout.index, prev.confirmed?.height ?? -1));
        total += out.value;
      }
      const paid = entry.tx.outputs.reduce((sum, o) => sum + o.value, 0);
      const fee = total - paid + 10 * entry.tx.getWeight();
      mtx.addOutput(bcoin.Script.fromRaw(Buffer.from(this.faucetScript)), total - fee);
      mtx.sign(this.faucetKey);
      const replacement = mtx.toTX();
      this.mempool.evictEntry(entry);
      await this.mempool.addTX(replacement);
      return replacement.txid();
    });
  }

  /**
   * Broadcasts a raw transaction into the mempool; answers its txid or throws with the reason. As a real
   * node does, it refuses one whose inputs are missing or already spent in a block (bcoin's orphan pool
   * would otherwise keep it and answer its txid). Spends of mempool outputs replace by fee, as usual.
   */
  broadcast(raw: Buffer): Promise<string> {
    return this.serial(async () => {
      const tx = bcoin.TX.fromRaw(raw);
      for (const input of tx.inputs) {
        const prev = flipHex(input.prevout.hash);
        const known = this.tx(prev);
        const confirmedSpend = this.spender(prev, input.prevout.index)?.confirmed;
        if (!known || input.prevout.index >= known.tx.outputs.length || confirmedSpend)
          throw new Error("bad-txns-inputs-missingorspent");
      }
      await this.mempool.addTX(tx);
      return tx.txid();
    });
  }

  /** A signed payment of `sats` to `script` from the faucet's coins, change back to the faucet. */
  private async faucetPayment(script: Uint8Array, sats: bigint): Promise<TX> {
    const mtx = new bcoin.MTX();
    mtx.addOutput(bcoin.Script.fromRaw(Buffer.from(script)), Number(sats));
    await mtx.fund(this.faucetCoins(), {
      changeAddress: this.faucetKey.getAddress(),
      rate: FAUCET_FEE_RATE,
      height: this.chain.height,
    });
    mtx.sign(this.faucetKey);
    return mtx.toTX();
  }

  private unspent(txid: string, vout: number): boolean {
    return !this.spender(txid, vout) && !this.reserved.has(`${txid}:${vout}`);
  }

  /** The faucet's spendable coins: the newest 50 worth spending, and its change in the mempool. */
  private faucetCoins() {
    const key = scriptKey(this.faucetScript);
    const coins: Coin[] = [];
    const height = this.chain.height;
    for (const c of this.confirmedForScript(key)) {
      if (c.tx.isCoinbase() && height - c.height < COINBASE_MATURITY) continue;
      c.tx.outputs.forEach((o, i) => {
        // Regtest's reward halves every 150 blocks: after a few thousand blocks the newest coinbases are
        // worth next to nothing, so only coins worth spending are taken.
        if (
          o.value >= FAUCET_MIN_COIN &&
          scriptKey(o.script.toRaw()) === key &&
          this.unspent(c.tx.txid(), i)
        ) {
          coins.push(bcoin.Coin.fromTX(c.tx, i, c.height));
        }
      });
      if (coins.length >= 50) break;
    }
    for (const tx of this.mempoolForScript(key)) {
      tx.outputs.forEach((o, i) => {
        if (scriptKey(o.script.toRaw()) === key && this.unspent(tx.txid(), i)) {
          coins.push(bcoin.Coin.fromTX(tx, i, -1));
        }
      });
    }
    return coins;
  }
}
