import type { Network } from "../events/types";

/** The block explorer page of a transaction on the wallet's network; regtest points at the local API. */
export const explorerTxUrl = (network: Network, txid: string, esplora: string): string => {
  switch (network) {
    case "bitcoin":
      return `https://mempool.space/tx/${txid}`;
    case "testnet":
      return `https://mempool.space/testnet/tx/${txid}`;
    case "signet":
      return `https://mempool.space/signet/tx/${txid}`;
    case "regtest":
      return `${esplora.replace(/\/$/, "")}/tx/${txid}`;
  }
};
