/**
 * Turns a chain view into the events the log lacks. Pure apart from asking the server about
 * transactions that vanished. The same view and log always give the same events, and a log that already
 * holds them gives none: events are idempotent across syncs.
 */
import { type NewEvent, newEvent } from "../../events/make";
import type { OnchainState } from "../../projections/onchain";
import type { Bip84Account } from "./account";
import type { EsploraClient, EsploraTx } from "./esplora";
import type { ChainView, ScanCache } from "./scan";

/** The wallet's side of a transaction: what came to its addresses, what left them, the fee. */
export const walletView = (account: Bip84Account, t: EsploraTx) => {
  let received = 0n;
  let sent = 0n;
  for (const o of t.vout) if (account.isMine(o.scriptpubkey)) received += BigInt(o.value);
  for (const i of t.vin)
    if (i.prevout && account.isMine(i.prevout.scriptpubkey)) sent += BigInt(i.prevout.value);
  return { received, sent, fee: BigInt(t.fee), outgoing: sent > 0n };
};

export const txSeen = (account: Bip84Account, t: EsploraTx, labels: readonly string[] = []): NewEvent => {
  const v = walletView(account, t);
  return newEvent("onchain.tx_seen", {
    txid: t.txid,
    received: v.received.toString(),
    sent: v.sent.toString(),
    fee: v.fee.toString(),
    labels: [...labels],
    outgoing: v.outgoing,
  });
};

/** Confirmed first, oldest block first, then the mempool: the order the owner would tell it. */
const chronological = (a: EsploraTx, b: EsploraTx): number =>
  (a.status.block_height ?? Number.MAX_SAFE_INTEGER) - (b.status.block_height ?? Number.MAX_SAFE_INTEGER) ||
  (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0);

/**
 * What a spend needs the log to know of a view that may be older than the log: the used addresses and the
 * transactions the log lacks (the coins it spends come from them). Pure; it never contradicts what the log
 * holds (a newer sync's confirmation stays), which is left to the next sync's `diff`.
 */
export const catchUp = (account: Bip84Account, state: OnchainState, view: ChainView): NewEvent[] => {
  const events = newAddresses(state, view);
  for (const t of [...view.txs.values()].sort(chronological)) {
    if (state.txs.has(t.txid)) continue;
    events.push(txSeen(account, t));
    const confirmed = confirmedEvent(t);
    if (confirmed) events.push(confirmed);
  }
  return events;
};

/** The addresses the view saw used that the log has not issued yet, in keychain and index order. */
const newAddresses = (state: OnchainState, view: ChainView): NewEvent[] =>
  [...view.used]
    .sort((x, y) => x.keychain.localeCompare(y.keychain) || x.index - y.index)
    .filter((a) => !state.addresses.has(a.address))
    .map((a) =>
      newEvent("onchain.address_issued", {
        address: a.address,
        keychain: a.keychain,
        index: a.index,
        labels: [],
      }),
    );

/** The confirmation of `t` as the server states it, when it is confirmed. */
const confirmedEvent = (t: EsploraTx): NewEvent | null => {
  const s = t.status;
  return s.confirmed && s.block_hash && s.block_height !== undefined
    ? newEvent("onchain.tx_confirmed", {
        txid: t.txid,
        height: s.block_height,
        blockHash: s.block_hash,
        blockTime: s.block_time ?? 0,
      })
    : null;
};

export const diff = async (
  client: EsploraClient,
  account: Bip84Account,
  state: OnchainState,
  view: ChainView,
  cache: ScanCache,
): Promise<NewEvent[]> => {
  const events = newAddresses(state, view);
  for (const t of [...view.txs.values()].sort(chronological)) {
    const known = state.txs.get(t.txid);
    const fresh = !known || known.dropped;
    // Amounts a server once misstated are corrected as soon as it (or another) states them rightly.
    const v = walletView(account, t);
    const misstated =
      known && (known.received !== v.received || known.sent !== v.sent || known.fee !== v.fee);
    if (fresh || misstated) events.push(txSeen(account, t));
    const confirmed = confirmedEvent(t);
    if (confirmed) {
      if (fresh || known?.confirmation?.blockHash !== t.status.block_hash) events.push(confirmed);
    } else if (!fresh && known?.confirmation) {
      events.push(newEvent("onchain.tx_unconfirmed", { txid: t.txid }));
    }
  }

  for (const known of state.txs.values()) {
    if (known.dropped || view.txs.has(known.txid)) continue;
    // Gone from every address's history: make sure the server no longer knows it at all.
    if ((await client.txStatus(known.txid)) !== null) continue;
    events.push(
      newEvent("onchain.tx_dropped", {
        txid: known.txid,
        replacedBy: await replacement(client, view, cache, known.txid),
      }),
    );
  }
  return events;
};

/** The transaction that now spends one of a vanished transaction's inputs, when one does. */
const replacement = async (
  client: EsploraClient,
  view: ChainView,
  cache: ScanCache,
  txid: string,
): Promise<string | null> => {
  const gone = cache.seen.get(txid);
  if (!gone) return null;
  const inputs = new Set(gone.vin.map((i) => `${i.txid}:${i.vout}`));
  for (const t of view.txs.values()) {
    if (t.txid !== txid && t.vin.some((i) => inputs.has(`${i.txid}:${i.vout}`))) return t.txid;
  }
  for (const i of gone.vin) {
    if (i.is_coinbase) continue;
    const spend = await client.outspend(i.txid, i.vout);
    if (spend?.spent && spend.txid && spend.txid !== txid) return spend.txid;
  }
  return null;
};
