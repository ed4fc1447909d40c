import type { OnchainKeychain } from "../events/types";
import { patchEntry, projection, toSats } from "./projection";

export interface OnchainTx {
  readonly txid: string;
  readonly received: bigint;
  readonly sent: bigint;
  readonly fee: bigint;
  readonly labels: readonly string[];
  readonly outgoing: boolean;
  /** A send made here: the destination's output script (hex) and the amount paid to it. */
  readonly paidTo: { readonly script: string; readonly amount: bigint } | null;
  /** When the wallet first saw it (event time, ms). */
  readonly seenAt: number;
  readonly confirmation: {
    readonly height: number;
    readonly blockHash: string;
    readonly blockTime: number;
  } | null;
  readonly dropped: boolean;
  /**
   * When the wallet found it gone (event time, ms): a final state, whatever the server had claimed of it
   * before (a "confirmation" a lying server made up ends here too). Null while it is not dropped.
   */
  readonly droppedAt: number | null;
  readonly replacedBy: string | null;
}

export interface IssuedAddress {
  readonly address: string;
  readonly keychain: OnchainKeychain;
  readonly index: number;
  readonly labels: readonly string[];
}

export interface OnchainState {
  readonly txs: Map<string, OnchainTx>;
  readonly addresses: Map<string, IssuedAddress>;
  /** The next unused derivation index of each keychain. */
  readonly nextIndex: { external: number; internal: number };
}

/** On-chain wallet state as the log records it: transactions, issued addresses, next indexes. */
export const onchainProjection = projection<OnchainState, OnchainState>({
  name: "onchain",
  initial: () => ({ txs: new Map(), addresses: new Map(), nextIndex: { external: 0, internal: 0 } }),
  apply: (s, e) => {
    switch (e.type) {
      case "onchain.address_issued": {
        const p = e.payload;
        s.addresses.set(p.address, {
          address: p.address,
          keychain: p.keychain,
          index: p.index,
          labels: p.labels,
        });
        s.nextIndex[p.keychain] = Math.max(s.nextIndex[p.keychain], p.index + 1);
        return s;
      }
      case "onchain.tx_seen": {
        const p = e.payload;
        const prior = s.txs.get(p.txid);
        s.txs.set(p.txid, {
          txid: p.txid,
          received: toSats(p.received),
          sent: toSats(p.sent),
          fee: toSats(p.fee),
          labels: prior ? [...new Set([...prior.labels, ...p.labels])] : p.labels,
          outgoing: p.outgoing || (prior?.outgoing ?? false),
          paidTo:
            prior?.paidTo ?? (p.paidTo ? { script: p.paidTo.script, amount: toSats(p.paidTo.amount) } : null),
          seenAt: prior?.seenAt ?? e.at,
          confirmation: prior?.confirmation ?? null,
          dropped: false,
          droppedAt: null,
          replacedBy: null,
        });
        return s;
      }
      case "onchain.tx_confirmed": {
        const { height, blockHash, blockTime } = e.payload;
        patchEntry(s.txs, e.payload.txid, (t) => ({
          ...t,
          confirmation: { height, blockHash, blockTime },
          dropped: false,
          droppedAt: null,
          replacedBy: null,
        }));
        return s;
      }
      case "onchain.tx_unconfirmed":
        patchEntry(s.txs, e.payload.txid, (t) => ({ ...t, confirmation: null }));
        return s;
      case "onchain.tx_dropped":
        patchEntry(s.txs, e.payload.txid, (t) => ({
          ...t,
          confirmation: null,
          dropped: true,
          droppedAt: e.at,
          replacedBy: e.payload.replacedBy,
        }));
        return s;
      default:
        return s;
    }
  },
  view: (s) => s,
});

/** What a transaction moved for the owner: positive in, negative out (fee included). */
export const netOf = (t: OnchainTx): bigint => t.received - t.sent;

/**
 * Whether the funding transaction of the channel at `outpoint` is one the log has as dropped: signed here
 * but refused by the server (or replaced), so its coins never left the wallet.
 */
export const fundingGoneIn =
  (s: OnchainState) =>
  (outpoint: string | null): boolean =>
    outpoint !== null && (s.txs.get(outpoint.split(":")[0]!)?.dropped ?? false);
