/**
 * A client of an Esplora REST API (blockstream/electrs, mempool.space, the local world). One request
 * pipeline: at most `concurrency` requests in flight, each bounded in time and size, retries with backoff on
 * 429, 5xx, network errors, timeouts and answers that do not fit their schema. Failures are
 * `EsploraError`s; the port turns them into the wallet's tagged errors once.
 */
import { Schema } from "effect";
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import {
  AddressStatsSchema,
  BlockStatusSchema,
  FeeEstimatesSchema,
  HeightSchema,
  MempoolSchema,
  MerkleProofSchema,
  OutspendSchema,
  StatusSchema,
  TxSchema,
  UtxosSchema,
} from "./esplora-schema";

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
  /** Each request's deadline and byte cap. */
  readonly limits?: RequestLimits;
}

/** A request's whole exchange within 20 s, its answer within 5 MB (a page of 25 large transactions). */
export const ESPLORA_LIMITS: RequestLimits = { timeoutMs: 20_000, maxBytes: 5_000_000 };

/** Esplora pages an address's confirmed history 25 transactions at a time. */
const CHAIN_PAGE = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type EsploraClient = ReturnType<typeof makeEsplora>;

export const makeEsplora = (baseUrl: string, fetchFn: FetchFn, opts: EsploraOptions = {}) => {
  const base = baseUrl.replace(/\/+$/, "");
  const http = boundedFetch(fetchFn, opts.limits ?? ESPLORA_LIMITS);
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

  /**
   * One request through the pipeline: null on 404 when `allow404`, else the answer as `read` makes it. An
   * answer `read` refuses is the server's failure, retried like a 5xx.
   */
  const request = async <T>(
    path: string,
    read: (text: string) => T,
    init?: RequestInit,
    allow404 = false,
  ): Promise<T | null> => {
    for (let attempt = 0; ; attempt++) {
      const release = await slot();
      let status: number | undefined;
      let text = "";
      let problem: string | null = null;
      try {
        opts.onRequest?.(path);
        // Called as a plain function: a browser's fetch refuses to run with another `this`.
        const r = await http(`${base}${path}`, init);
        status = r.status;
        text = await r.text();
      } catch (e) {
        status = undefined;
        problem = e instanceof Error && e.message ? e.message : null;
      } finally {
        release();
      }
      if (status === 404 && allow404) return null;
      if (status !== undefined && status >= 200 && status < 300) {
        try {
          return read(text);
        } catch (e) {
          problem = `answered something that is not what was asked (${e instanceof Error ? e.message.split("\n")[0] : "unreadable"})`;
          status = undefined;
          if (attempt >= retries) throw new EsploraError(`The Esplora server ${problem}`, path);
          await sleep(backoff * 2 ** attempt);
          continue;
        }
      }
      const retryable = status === undefined || status === 429 || status >= 500;
      if (!retryable || attempt >= retries) {
        const why =
          status === undefined
            ? `could not be reached${problem ? ` (${problem})` : ""}`
            : `answered ${status}${text ? `: ${text.slice(0, 200)}` : ""}`;
        throw new EsploraError(`The Esplora server ${why}`, path, status);
      }
      await sleep(backoff * 2 ** attempt);
    }
  };

  /** JSON checked against `schema`; anything else is the server's failure. */
  const json = <S extends Schema.Top>(schema: S) => {
    const decode = Schema.decodeUnknownSync(schema as never) as (u: unknown) => S["Type"];
    return (t: string): S["Type"] => decode(JSON.parse(t));
  };
  const get = async <S extends Schema.Top>(path: string, schema: S): Promise<S["Type"]> =>
    (await request(path, json(schema))) as S["Type"];
  const getOrNull = <S extends Schema.Top>(path: string, schema: S): Promise<S["Type"] | null> =>
    request(path, json(schema), undefined, true);
  const hexText = (length?: number) => (t: string) => {
    const v = t.trim();
    if (!/^([0-9a-fA-F]{2})*$/.test(v) || (length !== undefined && v.length !== length))
      throw new Error("not hex of the expected length");
    return v;
  };

  return {
    tipHash: async (): Promise<string> => (await request("/blocks/tip/hash", hexText(64))) ?? "",
    tipHeight: async (): Promise<number> =>
      (await request("/blocks/tip/height", (t) =>
        Schema.decodeUnknownSync(HeightSchema)(Number(t.trim() || "x")),
      )) ?? 0,
    blockStatus: (hash: string) => get(`/block/${hash}/status`, BlockStatusSchema),
    /** A fingerprint of the mempool (count, size, fees), enough to tell that it changed. */
    mempoolFingerprint: async (): Promise<string> => {
      const m = await get("/mempool", MempoolSchema);
      return `${m.count}:${m.vsize}:${m.total_fee}`;
    },
    feeEstimates: (): Promise<Readonly<Record<string, number>>> => get("/fee-estimates", FeeEstimatesSchema),
    addressStats: (address: string): Promise<AddressStats> => get(`/address/${address}`, AddressStatsSchema),
    /** Every transaction of an address: mempool first, then confirmed newest first, all pages. */
    addressTxs: async (address: string, confirmedCount: number): Promise<EsploraTx[]> => {
      const page = Schema.Array(TxSchema);
      const first = await get(`/address/${address}/txs`, page);
      const txs: EsploraTx[] = [...first];
      let confirmed: readonly EsploraTx[] = first.filter((t) => t.status.confirmed);
      while (
        confirmed.length === CHAIN_PAGE &&
        txs.filter((t) => t.status.confirmed).length < confirmedCount
      ) {
        const last = confirmed[confirmed.length - 1]!.txid;
        confirmed = await get(`/address/${address}/txs/chain/${last}`, page);
        txs.push(...confirmed);
      }
      return txs;
    },
    tx: (txid: string): Promise<EsploraTx | null> => getOrNull(`/tx/${txid}`, TxSchema),
    /** Unspent outputs paying to a script (by Esplora's scripthash: the reversed sha256 of the script). */
    scriptUtxos: (scripthash: string) => get(`/scripthash/${scripthash}/utxo`, UtxosSchema),
    /** A transaction's raw bytes as hex, null when the server does not know it. */
    txHex: (txid: string): Promise<string | null> => request(`/tx/${txid}/hex`, hexText(), undefined, true),
    /** The 80-byte header of a block, as hex. */
    blockHeader: async (hash: string): Promise<string> =>
      (await request(`/block/${hash}/header`, hexText(160))) ?? "",
    /** Where a confirmed transaction sits in its block. */
    merkleProof: (txid: string) => get(`/tx/${txid}/merkle-proof`, MerkleProofSchema),
    txStatus: (txid: string): Promise<EsploraStatus | null> => getOrNull(`/tx/${txid}/status`, StatusSchema),
    outspend: (txid: string, vout: number): Promise<Outspend | null> =>
      getOrNull(`/tx/${txid}/outspend/${vout}`, OutspendSchema),
    /**
     * Broadcasts a signed transaction (hex); answers what the server answered, trimmed (the txid, from an
     * honest server: the caller compares it with the one it computed). Not retried on a 4xx rejection.
     */
    broadcast: async (txHex: string): Promise<string> =>
      (await request("/tx", (t) => t.trim(), {
        method: "POST",
        body: txHex,
        headers: { "content-type": "text/plain" },
      })) ?? "",
  };
};
