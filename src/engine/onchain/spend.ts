/**
 * Spending the wallet's coins: which outputs it may spend, the plan (coins, amount, change, fee) and the
 * signed transaction. Every input signals replace-by-fee (nSequence 0xfffffffd, BIP125).
 */
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import type { AccountAddress, Bip84Account } from "./account";
import type { Selection } from "./coin-select";
import { walletView } from "./diff";
import type { ChainView } from "./scan";

export const RBF_SEQUENCE = 0xfffffffd;

export interface WalletCoin {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly owner: AccountAddress;
  readonly confirmed: boolean;
}

/**
 * Unspent outputs the wallet may spend: confirmed ones, and its own unconfirmed change (others' unconfirmed
 * payments wait for a block, as the balance shows them).
 */
export const spendableCoins = (account: Bip84Account, view: ChainView): WalletCoin[] => {
  const spent = new Set<string>();
  for (const t of view.txs.values()) for (const i of t.vin) spent.add(`${i.txid}:${i.vout}`);
  const coins: WalletCoin[] = [];
  for (const t of view.txs.values()) {
    const ours = t.status.confirmed || walletView(account, t).outgoing;
    if (!ours) continue;
    t.vout.forEach((o, vout) => {
      const owner = account.owner(o.scriptpubkey);
      if (!owner || spent.has(`${t.txid}:${vout}`)) return;
      coins.push({ txid: t.txid, vout, value: BigInt(o.value), owner, confirmed: t.status.confirmed });
    });
  }
  // A stable order before selection sorts by value: oldest coins win ties.
  return coins.sort((a, b) => (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : a.vout - b.vout));
};

export interface SignedTx {
  readonly txid: string;
  readonly hex: string;
}

export const signSpend = (
  account: Bip84Account,
  selection: Selection<WalletCoin>,
  destination: Uint8Array,
  change: AccountAddress | null,
): SignedTx => {
  const tx = new Transaction({ version: 2 });
  for (const c of selection.inputs) {
    tx.addInput({
      txid: c.txid,
      index: c.vout,
      witnessUtxo: { script: hex.decode(c.owner.script), amount: c.value },
      sequence: RBF_SEQUENCE,
    });
  }
  tx.addOutput({ script: destination, amount: selection.amount });
  if (selection.change > 0n) {
    if (!change) throw new Error("A change output needs a change address");
    tx.addOutput({ script: hex.decode(change.script), amount: selection.change });
  }
  selection.inputs.forEach((c, i) => {
    tx.signIdx(account.privateKey(c.owner.keychain, c.owner.index), i);
  });
  tx.finalize();
  return { txid: tx.id, hex: tx.hex };
};
