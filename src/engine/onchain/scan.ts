/**
 * The chain's view of the wallet, fetched request by request (bdk's request → update): each keychain's
 * addresses are scanned up to `GAP_LIMIT` past the last used one, and an address's history is fetched
 * only when its counts changed since the last scan. With the same tip and the same mempool, the last
 * view is reused after two requests.
 */
import type { OnchainKeychain } from "../../events/types";
import type { OnchainState } from "../../projections/onchain";
import { type AccountAddress, type Bip84Account, GAP_LIMIT } from "./account";
import type { EsploraClient, EsploraTx } from "./esplora";

export interface ChainView {
  /** Every transaction touching a scanned address: confirmed and in the mempool. */
  readonly txs: ReadonlyMap<string, EsploraTx>;
  /** Addresses with any history. */
  readonly used: readonly AccountAddress[];
  /** The highest used index of each keychain, -1 when none. */
  readonly lastUsed: { readonly [K in OnchainKeychain]: number };
}

/** What the port keeps between syncs, in memory only: the log stays the one source of truth. */
export interface ScanCache {
  tip: string | null;
  mempool: string | null;
  view: ChainView | null;
  readonly addresses: Map<string, { readonly fingerprint: string; readonly txs: readonly EsploraTx[] }>;
  /** Every transaction this port has seen, so one that vanishes can be matched to its replacement. */
  readonly seen: Map<string, EsploraTx>;
  feeRate: { readonly tip: string; readonly rate: bigint } | null;
}

export const emptyCache = (): ScanCache => ({
  tip: null,
  mempool: null,
  view: null,
  addresses: new Map(),
  seen: new Map(),
  feeRate: null,
});

const KEYCHAINS: readonly OnchainKeychain[] = ["external", "internal"];

export const scan = async (
  client: EsploraClient,
  account: Bip84Account,
  state: OnchainState,
  cache: ScanCache,
): Promise<ChainView> => {
  const [tip, mempool] = await Promise.all([client.tipHash(), client.mempoolFingerprint()]);
  if (cache.view && cache.tip === tip && cache.mempool === mempool) return cache.view;
  if (cache.tip && cache.tip !== tip && !(await client.blockStatus(cache.tip)).in_best_chain) {
    // The block the last scan ended on was reorganised out: every history is suspect.
    cache.addresses.clear();
  }

  const historyOf = async (a: AccountAddress): Promise<readonly EsploraTx[]> => {
    const stats = await client.addressStats(a.address);
    const fingerprint = JSON.stringify([stats.chain_stats, stats.mempool_stats]);
    const known = cache.addresses.get(a.address);
    if (known && known.fingerprint === fingerprint) return known.txs;
    const count = stats.chain_stats.tx_count + stats.mempool_stats.tx_count;
    const txs = count === 0 ? [] : await client.addressTxs(a.address, stats.chain_stats.tx_count);
    cache.addresses.set(a.address, { fingerprint, txs });
    return txs;
  };

  const txs = new Map<string, EsploraTx>();
  const used: AccountAddress[] = [];
  const lastUsed = { external: -1, internal: -1 };
  for (const keychain of KEYCHAINS) {
    let scanned = 0;
    let target = state.nextIndex[keychain] + GAP_LIMIT;
    while (scanned < target) {
      const batch: AccountAddress[] = [];
      for (let i = scanned; i < target; i++) batch.push(account.address(keychain, i));
      const histories = await Promise.all(batch.map(historyOf));
      histories.forEach((h, i) => {
        if (h.length === 0) return;
        const a = batch[i]!;
        used.push(a);
        lastUsed[keychain] = Math.max(lastUsed[keychain], a.index);
        for (const t of h) txs.set(t.txid, t);
      });
      scanned = target;
      target = Math.max(target, lastUsed[keychain] + 1 + GAP_LIMIT);
    }
  }
  for (const t of txs.values()) cache.seen.set(t.txid, t);
  const view: ChainView = { txs, used, lastUsed };
  cache.tip = tip;
  cache.mempool = mempool;
  cache.view = view;
  return view;
};
