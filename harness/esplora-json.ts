/** Esplora's JSON shapes (blockstream/electrs REST) for the regtest world's transactions and blocks. */
import { createHash } from "node:crypto";
import type { ChainEntry, TX } from "bcoin";
import { OutScript } from "@scure/btc-signer";
import { addressOfScript, type Confirmed, flipHex, type World } from "./regtest";

export interface TxStatus {
  readonly confirmed: boolean;
  readonly block_height?: number;
  readonly block_hash?: string;
  readonly block_time?: number;
}

export const statusJson = (c: Confirmed | null): TxStatus =>
  c
    ? { confirmed: true, block_height: c.height, block_hash: c.blockHash, block_time: c.blockTime }
    : { confirmed: false };

const SCRIPT_TYPES: Record<string, string> = {
  pkh: "p2pkh",
  sh: "p2sh",
  wpkh: "v0_p2wpkh",
  wsh: "v0_p2wsh",
  tr: "v1_p2tr",
  pk: "p2pk",
};

const scriptType = (script: Uint8Array): string => {
  if (script[0] === 0x6a) return "op_return";
  try {
    return SCRIPT_TYPES[OutScript.decode(script).type] ?? "unknown";
  } catch {
    return "unknown";
  }
};

const outputJson = (script: Buffer, asm: string, value: number) => {
  const address = addressOfScript(script);
  return {
    scriptpubkey: script.toString("hex"),
    scriptpubkey_asm: asm,
    scriptpubkey_type: scriptType(script),
    ...(address ? { scriptpubkey_address: address } : {}),
    value,
  };
};

export const txJson = (w: World, tx: TX, c: Confirmed | null) => {
  const coinbase = tx.isCoinbase();
  let inSum = 0;
  const vin = tx.inputs.map((input) => {
    const prev = coinbase ? null : w.prevout(input.prevout.hash, input.prevout.index);
    if (prev) inSum += prev.value;
    return {
      txid: flipHex(input.prevout.hash),
      vout: input.prevout.index,
      prevout: prev ? outputJson(prev.script.toRaw(), prev.script.toString(), prev.value) : null,
      scriptsig: input.script.toRaw().toString("hex"),
      scriptsig_asm: input.script.toString(),
      witness: input.witness.items.map((b) => b.toString("hex")),
      is_coinbase: coinbase,
      sequence: input.sequence >>> 0,
    };
  });
  const vout = tx.outputs.map((o) => outputJson(o.script.toRaw(), o.script.toString(), o.value));
  const outSum = tx.outputs.reduce((s, o) => s + o.value, 0);
  return {
    txid: tx.txid(),
    version: tx.version,
    locktime: tx.locktime,
    vin,
    vout,
    size: tx.getSize(),
    weight: tx.getWeight(),
    fee: coinbase ? 0 : inSum - outSum,
    status: statusJson(c),
  };
};

export const blockJson = async (w: World, entry: ChainEntry) => {
  const block = await w.block(entry);
  const prev = entry.height > 0 ? flipHex(entry.prevBlock) : null;
  return {
    id: entry.rhash(),
    height: entry.height,
    version: entry.version,
    timestamp: entry.time,
    tx_count: block?.txs.length ?? 0,
    size: block?.getSize() ?? 0,
    weight: block?.getWeight() ?? 0,
    merkle_root: flipHex(entry.merkleRoot),
    previousblockhash: prev,
    mediantime: await w.medianTime(entry),
    nonce: entry.nonce,
    bits: entry.bits,
    difficulty: 1,
  };
};

const sha256d = (b: Buffer): Buffer =>
  createHash("sha256").update(createHash("sha256").update(b).digest()).digest();

/** The merkle branch of the transaction at `pos` among `hashes` (internal byte order), display hex. */
export const merkleBranch = (hashes: Buffer[], pos: number): string[] => {
  const branch: string[] = [];
  let level = hashes;
  let i = pos;
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    const sibling = level[i ^ 1]!;
    branch.push(Buffer.from(sibling).reverse().toString("hex"));
    const next: Buffer[] = [];
    for (let j = 0; j < level.length; j += 2) next.push(sha256d(Buffer.concat([level[j]!, level[j + 1]!])));
    level = next;
    i >>= 1;
  }
  return branch;
};

/** Per-address funded/spent counts and sums, as Esplora's `chain_stats` and `mempool_stats`. */
export const statsFor = (w: World, key: string, txs: { tx: TX }[]) => {
  const stats = { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 };
  for (const { tx } of txs) {
    stats.tx_count++;
    for (const o of tx.outputs) {
      if (scriptKeyOf(o.script.toRaw()) === key) {
        stats.funded_txo_count++;
        stats.funded_txo_sum += o.value;
      }
    }
    if (tx.isCoinbase()) continue;
    for (const input of tx.inputs) {
      const prev = w.prevout(input.prevout.hash, input.prevout.index);
      if (prev && scriptKeyOf(prev.script.toRaw()) === key) {
        stats.spent_txo_count++;
        stats.spent_txo_sum += prev.value;
      }
    }
  }
  return stats;
};

const scriptKeyOf = (script: Buffer): string => createHash("sha256").update(script).digest("hex");
