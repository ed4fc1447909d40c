/**
 * A client of an Esplora REST API (blockstream/electrs, mempool.space, the local world). One request
 * pipeline: at most `concurrency` requests in flight, retries with backoff on 429, 5xx and network
 * errors. Failures are `EsploraError`s; the port turns them into the wallet's tagged errors once.
 */

export interface EsploraStatus {
  readonly confirmed: boolean;
  readonly block_height?: number;
  readonly block_hash?: string;
  readonly block_time?: number;
}

export interface EsploraOutput {
  readonly scriptpubkey: string;
  readonly scriptpubkey_address?: string;
  readonly value: number;
}

export interface EsploraTx {
  readonly txid: string;
  readonly vin: readonly {
    readonly txid: string;
    readonly vout: number;
    readonly prevout: EsploraOutput | null;
    readonly sequence: number;
    readonly is_coinbase?: boolean;
  }[];
  readonly vout: readonly EsploraOutput[];
  readonly fee: number;
  readonly status: EsploraStatus;
}

export interface AddressStats {
  readonly chain_stats: {
    readonly tx_count: number;
    readonly funded_txo_sum: number;
    readonly spent_txo_sum: number;
  };
  readonly mempool_stats: {
    readonly tx_count: number;
    readonly funded_txo_sum: number;
    readonly spent_txo_sum: number;
  };
}

export interface Outspend {
  readonly spent: boolean;
  readonly txid?: string;
  readonly vin?: number;
}

export class EsploraError extends Error {
  constructor(
    message: string,
    readonly path: string,
    /** HTTP status, absent when the server could not be reached. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface EsploraOptions {
  readonly concurrency?: number;
  readonly retries?: number;
  readonly backoffMs?: number;
  /** Called for every HTTP request made (after retries count as their own), for measuring. */
  readonly onRequest?: (path: string) => void;
}

/** Esplora pages an address's confirmed history 25 transactions at a time. */
const CHAIN_PAGE = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type EsploraClient = ReturnType<typeof makeEsplora>;

export const makeEsplora = (baseUrl: string, fetchFn: typeof fetch, opts: EsploraOptions = {}) => {
  const base = baseUrl.replace(/\/+$/, "");
  const concurrency = opts.concurrency ?? 4;
  const retries = opts.retries ?? 3;
  const backoff = opts.backoffMs ?? 250;
  let active = 0;
  const waiting: (() => void)[] = [];

  const slot = async (): Promise<() => void> => {
    if (active >= concurrency) await new Promise<void>((r) => waiting.push(r));
    active++;
    return () => {
      active--;
      waiting.shift()?.();
    };
  };

  /** One request through the pipeline: null on 404 when `allow404`, the body text otherwise. */
  const request = async (path: string, init?: RequestInit, allow404 = false): Promise<string | null> => {
    for (let attempt = 0; ; attempt++) {
      const release = await slot();
      let status: number | undefined;
      let text = "";
      try {
        opts.onRequest?.(path);
        // Called as a plain function: a browser's fetch refuses to run with another `this`.
        const r = await fetchFn(`${base}${path}`, init);
        status = r.status;
        text = await r.text();
      } catch {
        status = undefined;
      } finally {
        release();
      }
      if (status !== undefined && status >= 200 && status < 300) return text;
      if (status === 404 && allow404) return null;
      const retryable = status === undefined || status === 429 || status >= 500;
      if (!retryable || attempt >= retries) {
        const why =
          status === undefined
            ? "could not be reached"
            : `answered ${status}${text ? `: ${text.slice(0, 200)}` : ""}`;
        throw new EsploraError(`The Esplora server ${why}`, path, status);
      }
      await sleep(backoff * 2 ** attempt);
    }
  };

  const json = async <T>(path: string): Promise<T> => JSON.parse((await request(path)) ?? "null") as T;
  const jsonOrNull = async <T>(path: string): Promise<T | null> => {
    const text = await request(path, undefined, true);
    return text === null ? null : (JSON.parse(text) as T);
  };

  return {
    tipHash: async (): Promise<string> => ((await request("/blocks/tip/hash")) ?? "").trim(),
    tipHeight: async (): Promise<number> => Number(((await request("/blocks/tip/height")) ?? "").trim()),
    blockStatus: (hash: string) => json<{ in_best_chain: boolean; height?: number }>(`/block/${hash}/status`),
    /** A fingerprint of the mempool (count, size, fees), enough to tell that it changed. */
    mempoolFingerprint: async (): Promise<string> => {
      const m = await json<{ count: number; vsize: number; total_fee: number }>("/mempool");
      return `${m.count}:${m.vsize}:${m.total_fee}`;
    },
    feeEstimates: () => json<Record<string, number>>("/fee-estimates"),
    addressStats: (address: string) => json<AddressStats>(`/address/${address}`),
    /** Every transaction of an address: mempool first, then confirmed newest first, all pages. */
    addressTxs: async (address: string, confirmedCount: number): Promise<EsploraTx[]> => {
      const first = await json<EsploraTx[]>(`/address/${address}/txs`);
      const txs = [...first];
      let confirmed = first.filter((t) => t.status.confirmed);
      while (
        confirmed.length === CHAIN_PAGE &&
        txs.filter((t) => t.status.confirmed).length < confirmedCount
      ) {
        const last = confirmed[confirmed.length - 1]!.txid;
        confirmed = await json<EsploraTx[]>(`/address/${address}/txs/chain/${last}`);
        txs.push(...confirmed);
      }
      return txs;
    },
    tx: (txid: string) => jsonOrNull<EsploraTx>(`/tx/${txid}`),
    /** Unspent outputs paying to a script (by Esplora's scripthash: the reversed sha256 of the script). */
    scriptUtxos: (scripthash: string) =>
      json<{ txid: string; vout: number; value: number }[]>(`/scripthash/${scripthash}/utxo`),
    /** A transaction's raw bytes as hex, null when the server does not know it. */
    txHex: async (txid: string): Promise<string | null> =>
      (await request(`/tx/${txid}/hex`, undefined, true))?.trim() ?? null,
    /** The 80-byte header of a block, as hex. */
    blockHeader: async (hash: string): Promise<string> =>
      ((await request(`/block/${hash}/header`)) ?? "").trim(),
    /** Where a confirmed transaction sits in its block. */
    merkleProof: (txid: string) => json<{ block_height: number; pos: number }>(`/tx/${txid}/merkle-proof`),
    txStatus: (txid: string) => jsonOrNull<EsploraStatus>(`/tx/${txid}/status`),
    outspend: (txid: string, vout: number) => jsonOrNull<Outspend>(`/tx/${txid}/outspend/${vout}`),
    /** Broadcasts a signed transaction (hex); answers the txid. Not retried on a 4xx rejection. */
    broadcast: async (txHex: string): Promise<string> =>
      (
        (await request("/tx", { method: "POST", body: txHex, headers: { "content-type": "text/plain" } })) ??
        ""
      ).trim(),
  };
};
