/**
 * The local world's HTTP server: an Esplora-compatible REST API over the regtest chain, plus a faucet,
 * mining and reorg endpoints and a fixed price feed. CORS is open: the wallet runs on another port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { blockJson, merkleBranch, statsFor, statusJson, txJson } from "./esplora-json";
import { FEE_ESTIMATES, PRICES } from "./fees";
import { esploraLie, priceLie } from "./hostile-esplora";
import { Hostility } from "./hostile";
import { lspLie } from "./lsp";
import { flipHex, scriptKey, scriptOfAddress, type World } from "./regtest";
import {
  CORS,
  dispatch,
  HttpError,
  parseJson,
  type Reply,
  type Route,
  type RouteTable,
  readBody,
  send,
} from "../services/http";

/** Esplora pages confirmed address history 25 at a time, after up to 50 mempool transactions. */
const CHAIN_PAGE = 25;
const MEMPOOL_PAGE = 50;

export { HttpError, parseJson };
export type { Reply, Route, RouteTable };

const HEX64 = "([0-9a-fA-F]{64})";

const keyOfAddress = (address: string): string => {
  try {
    return scriptKey(scriptOfAddress(address));
  } catch {
    throw new HttpError(400, `Invalid Bitcoin address: ${address}`);
  }
};

/** Esplora's scripthash is the sha256 of the script with its bytes reversed. */
const keyOfScripthash = (h: string): string => flipHex(h.toLowerCase());

const routes = (w: World): [string, RegExp, Route][] => {
  const entryOr404 = async (hashOrHeight: string | number) => {
    const e = await w.entry(hashOrHeight);
    if (!e) throw new HttpError(404, "Block not found");
    return e;
  };
  const txOr404 = (txid: string) => {
    const t = w.tx(txid.toLowerCase());
    if (!t) throw new HttpError(404, "Transaction not found");
    return t;
  };
  const historyFor = (key: string, lastSeen: string | null, mempoolToo: boolean) => {
    const chain = w.confirmedForScript(key);
    let from = 0;
    if (lastSeen) {
      const i = chain.findIndex((c) => c.tx.txid() === lastSeen.toLowerCase());
      if (i < 0) throw new HttpError(422, "last_seen_txid not found");
      from = i + 1;
    }
    const confirmed = chain.slice(from, from + CHAIN_PAGE).map((c) => txJson(w, c.tx, c));
    const mempool = mempoolToo
      ? w
          .mempoolForScript(key)
          .slice(0, MEMPOOL_PAGE)
          .map((tx) => txJson(w, tx, null))
      : [];
    return [...mempool, ...confirmed];
  };
  const utxosFor = (key: string) => {
    const out = [];
    const seen = [
      ...w.mempoolForScript(key).map((tx) => ({ tx, c: null })),
      ...w.confirmedForScript(key).map((c) => ({ tx: c.tx, c })),
    ];
    for (const { tx, c } of seen) {
      const txid = tx.txid();
      for (const [vout, o] of tx.outputs.entries()) {
        if (scriptKey(o.script.toRaw()) !== key || w.spender(txid, vout)) continue;
        out.push({ txid, vout, status: statusJson(c), value: o.value });
      }
    }
    return out;
  };
  const addressRoutes = (prefix: string, toKey: (s: string) => string): [string, RegExp, Route][] => [
    [
      "GET",
      new RegExp(`^/${prefix}/([^/]+)$`),
      (m) => {
        const key = toKey(m[1]!);
        return {
          json: {
            [prefix === "address" ? "address" : "scripthash"]: m[1],
            chain_stats: statsFor(w, key, w.confirmedForScript(key)),
            mempool_stats: statsFor(
              w,
              key,
              w.mempoolForScript(key).map((tx) => ({ tx })),
            ),
          },
        };
      },
    ],
    ["GET", new RegExp(`^/${prefix}/([^/]+)/txs$`), (m) => ({ json: historyFor(toKey(m[1]!), null, true) })],
    [
      "GET",
      new RegExp(`^/${prefix}/([^/]+)/txs/chain(?:/${HEX64})?$`),
      (m) => ({
        json: historyFor(toKey(m[1]!), m[2] ?? null, false),
      }),
    ],
    [
      "GET",
      new RegExp(`^/${prefix}/([^/]+)/txs/mempool$`),
      (m) => ({
        json: w
          .mempoolForScript(toKey(m[1]!))
          .slice(0, MEMPOOL_PAGE)
          .map((tx) => txJson(w, tx, null)),
      }),
    ],
    ["GET", new RegExp(`^/${prefix}/([^/]+)/utxo$`), (m) => ({ json: utxosFor(toKey(m[1]!)) })],
  ];

  return [
    ["GET", /^\/blocks\/tip\/hash$/, () => ({ text: w.tip.rhash() })],
    ["GET", /^\/blocks\/tip\/height$/, () => ({ text: String(w.tip.height) })],
    [
      "GET",
      /^\/block-height\/(\d+)$/,
      async (m) => {
        const e = await w.entry(Number(m[1]));
        if (!e) throw new HttpError(404, "Block not found");
        return { text: e.rhash() };
      },
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}$`),
      async (m) => ({ json: await blockJson(w, await entryOr404(m[1]!)) }),
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}/header$`),
      async (m) => {
        const block = await w.block(await entryOr404(m[1]!));
        return { text: block?.toHead().toString("hex") ?? "" };
      },
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}/raw$`),
      async (m) => {
        const block = await w.block(await entryOr404(m[1]!));
        return { bytes: block?.toRaw() ?? Buffer.alloc(0) };
      },
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}/status$`),
      async (m) => {
        const e = await w.entry(m[1]!);
        if (!e || !(await w.isMain(e))) return { json: { in_best_chain: false } };
        const next = await w.next(e);
        return { json: { in_best_chain: true, height: e.height, next_best: next ? next.rhash() : null } };
      },
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}/txids$`),
      async (m) => {
        const block = await w.block(await entryOr404(m[1]!));
        return { json: (block?.txs ?? []).map((t) => t.txid()) };
      },
    ],
    [
      "GET",
      new RegExp(`^/block/${HEX64}/txs(?:/(\\d+))?$`),
      async (m) => {
        const e = await entryOr404(m[1]!);
        const block = await w.block(e);
        const start = Number(m[2] ?? 0);
        return {
          json: (block?.txs ?? []).slice(start, start + 25).map((t) => txJson(w, t, w.confirmedTx(t.txid()))),
        };
      },
    ],
    ...addressRoutes("address", keyOfAddress),
    ...addressRoutes("scripthash", keyOfScripthash),
    [
      "GET",
      new RegExp(`^/tx/${HEX64}$`),
      (m) => {
        const t = txOr404(m[1]!);
        return { json: txJson(w, t.tx, t.confirmed) };
      },
    ],
    ["GET", new RegExp(`^/tx/${HEX64}/hex$`), (m) => ({ text: txOr404(m[1]!).tx.toRaw().toString("hex") })],
    ["GET", new RegExp(`^/tx/${HEX64}/raw$`), (m) => ({ bytes: txOr404(m[1]!).tx.toRaw() })],
    ["GET", new RegExp(`^/tx/${HEX64}/status$`), (m) => ({ json: statusJson(txOr404(m[1]!).confirmed) })],
    [
      "GET",
      new RegExp(`^/tx/${HEX64}/merkle-proof$`),
      async (m) => {
        const t = txOr404(m[1]!);
        if (!t.confirmed) throw new HttpError(404, "Transaction not confirmed");
        const block = await w.block(await entryOr404(t.confirmed.blockHash));
        const hashes = (block?.txs ?? []).map((x) => Buffer.from(x.hash("hex"), "hex"));
        return {
          json: {
            block_height: t.confirmed.height,
            merkle: merkleBranch(hashes, t.confirmed.pos),
            pos: t.confirmed.pos,
          },
        };
      },
    ],
    [
      "GET",
      new RegExp(`^/tx/${HEX64}/outspend/(\\d+)$`),
      (m) => {
        const s = w.spender(m[1]!.toLowerCase(), Number(m[2]));
        return {
          json: s
            ? { spent: true, txid: s.txid, vin: s.vin, status: statusJson(s.confirmed) }
            : { spent: false },
        };
      },
    ],
    [
      "GET",
      new RegExp(`^/tx/${HEX64}/outspends$`),
      (m) => {
        const t = txOr404(m[1]!);
        const txid = t.tx.txid();
        return {
          json: t.tx.outputs.map((_, vout) => {
            const s = w.spender(txid, vout);
            return s
              ? { spent: true, txid: s.txid, vin: s.vin, status: statusJson(s.confirmed) }
              : { spent: false };
          }),
        };
      },
    ],
    [
      "POST",
      /^\/tx$/,
      async (_m, body) => {
        const raw = body.trim();
        if (!/^([0-9a-fA-F]{2})+$/.test(raw))
          throw new HttpError(400, "sendrawtransaction RPC error: TX decode failed");
        try {
          return { text: await w.broadcast(Buffer.from(raw, "hex")) };
        } catch (e) {
          const reason = e instanceof Error ? e.message : String(e);
          throw new HttpError(
            400,
            `sendrawtransaction RPC error: ${JSON.stringify({ code: -26, message: reason })}`,
          );
        }
      },
    ],
    ["GET", /^\/fee-estimates$/, () => ({ json: FEE_ESTIMATES })],
    [
      "GET",
      /^\/mempool$/,
      () => {
        const txs = w.mempoolTxs();
        let vsize = 0;
        let fee = 0;
        for (const { tx } of txs) {
          vsize += Math.ceil(tx.getWeight() / 4);
          fee += txJson(w, tx, null).fee;
        }
        return { json: { count: txs.length, vsize, total_fee: fee, fee_histogram: [] } };
      },
    ],
    ["GET", /^\/mempool\/txids$/, () => ({ json: w.mempoolTxs().map((e) => e.tx.txid()) })],
    [
      "GET",
      /^\/api\/v1\/price\/([A-Za-z]{3,5})$/,
      (m) => {
        const currency = m[1]!.toUpperCase();
        const price = PRICES[currency];
        if (price === undefined) throw new HttpError(404, `No price for ${currency}`);
        return { json: { currency, price } };
      },
    ],
    [
      "POST",
      /^\/faucet$/,
      async (_m, body) => {
        const b = parseJson(body);
        const address = typeof b.address === "string" ? b.address : "";
        keyOfAddress(address);
        const sats = b.sats === undefined ? 1_000_000n : toSats(b.sats);
        try {
          return { json: { txid: await w.faucet(address, sats) } };
        } catch (e) {
          throw new HttpError(400, e instanceof Error ? e.message : String(e));
        }
      },
    ],
    [
      "POST",
      /^\/mine$/,
      async (_m, body) => {
        const b = parseJson(body);
        const blocks = b.blocks === undefined ? 1 : Number(b.blocks);
        if (!Number.isInteger(blocks) || blocks < 1 || blocks > 1000)
          throw new HttpError(400, "blocks must be 1 to 1000");
        const address = typeof b.address === "string" ? b.address : undefined;
        if (address) keyOfAddress(address);
        return { json: { hashes: await w.mine(blocks, address) } };
      },
    ],
    [
      "POST",
      /^\/hold$/,
      async (_m, body) => {
        // A transaction left out of every block from now on: it waits in the mempool (a channel opening).
        try {
          w.hold(String(parseJson(body).txid ?? ""));
          return { json: {} };
        } catch (e) {
          throw new HttpError(400, e instanceof Error ? e.message : String(e));
        }
      },
    ],
    [
      "POST",
      /^\/replace$/,
      async (_m, body) => {
        const txid = String(parseJson(body).txid ?? "");
        try {
          return { json: { txid: await w.replace(txid) } };
        } catch (e) {
          throw new HttpError(400, e instanceof Error ? e.message : String(e));
        }
      },
    ],
    [
      "POST",
      /^\/reorg$/,
      async (_m, body) => {
        const depth = Number(parseJson(body).depth ?? 1);
        try {
          return { json: { hashes: await w.reorg(depth) } };
        } catch (e) {
          throw new HttpError(400, e instanceof Error ? e.message : String(e));
        }
      },
    ],
  ];
};

export const toSats = (v: unknown): bigint => {
  const text = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : typeof v === "string" ? v : "";
  if (!/^\d+$/.test(text)) throw new HttpError(400, "sats must be a whole number");
  return BigInt(text);
};

/**
 * Serves the Esplora API and, before it, the `extra` routes (the lightning node's and the LSP's, added once
 * the node is up: the array is read on every request).
 */
export const serve = (
  w: World,
  port: number,
  host = "127.0.0.1",
  extra: RouteTable = [],
  hostility: Hostility = new Hostility(),
): Promise<Server> => {
  const base = routes(w);
  const drips = new Set<ReturnType<typeof setInterval>>();
  /** The honest answer of the Esplora routes (and the price feed) for `path`. */
  const answer = (
    method: string,
    path: string,
    body: string,
    table: RouteTable,
    headers?: IncomingHttpHeaders,
    query?: URLSearchParams,
    raw?: Uint8Array,
  ): Promise<Reply> => dispatch(table, method, path, body, headers, query, raw);
  const server = createServer(async (req, res) => {
    try {
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      const full = (req.url ?? "/").split("?")[0]!;
      const raw = req.method === "POST" ? await readBody(req) : Buffer.alloc(0);
      const body = raw.toString("utf8");
      const method = req.method ?? "GET";
      // Under /hostile/<scope>/ the Esplora API and the price feed answer as that scope's mode says.
      const scoped = full.match(/^\/hostile\/([a-z0-9-]{1,40})(\/.*)$/);
      if (scoped) {
        const [, scope, rest] = scoped as unknown as [string, string, string];
        // The lying storage server (`storage-lies.ts`, among the extra routes): a hang is never answered.
        if (/^\/storage(?:\/|-save$)/.test(rest))
          return send(res, await answer(method, full, body, extra, req.headers, undefined, raw));
        // The rapid gossip sync server's lies (harness/hostile-rgs.ts, among the extra routes) by their full path.
        if (rest.startsWith("/rgs/")) return send(res, await answer(method, full, body, extra));
        // The HTTP LSP (its routes and `/v1/info`, among the extra ones) under `/hostile/<scope>/lsp`.
        const lspPath = rest.match(/^\/lsp(?:\/api)?(\/v1\/.*)$/);
        if (lspPath) {
          const honest = () => answer(method, lspPath[1]!, body, extra);
          const lspMode = hostility.of("lsp", scope);
          return send(res, lspMode ? await lspLie(lspMode.mode, honest) : await honest());
        }
        const path = rest.replace(/^\/api(?=\/(?!v1\/price))/, "");
        const price = path.match(/^\/api\/v1\/price\/([A-Za-z]{3,5})$/);
        const priceMode = hostility.of("price", scope);
        if (price && priceMode) return send(res, priceLie(priceMode, price[1]!.toUpperCase()));
        const mode = hostility.of("esplora", scope);
        const honest = () => answer(method, path, body, base);
        if (!mode) return send(res, await honest());
        const lie = await esploraLie(mode, {
          method,
          path,
          honest,
          scriptOf: (address) => Buffer.from(scriptOfAddress(address)).toString("hex"),
          tipHeight: () => w.tip.height,
        });
        if (lie.kind === "reply") return send(res, lie.reply);
        if (lie.kind === "hang") return;
        res.writeHead(200, { ...CORS, "content-type": "application/json" });
        let at = 0;
        const drip = setInterval(() => {
          if (at >= lie.body.length || res.destroyed) {
            clearInterval(drip);
            drips.delete(drip);
            res.end();
            return;
          }
          res.write(lie.body[at++]!);
        }, lie.everyMs);
        drips.add(drip);
        return;
      }
      const path = full.replace(/^\/api(?=\/(?!v1\/price))/, "");
      const query = new URLSearchParams((req.url ?? "").split("?").slice(1).join("?"));
      send(res, await answer(method, path, body, [...extra, ...base], req.headers, query, raw));
    } catch (e) {
      if (e instanceof HttpError) send(res, { status: e.status, text: e.message });
      else send(res, { status: 500, text: e instanceof Error ? e.message : String(e) });
    }
  });
  server.on("close", () => {
    for (const d of drips) clearInterval(d);
    drips.clear();
  });
  server.keepAliveTimeout = 1000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
};

export const portOf = (server: Server): number => (server.address() as AddressInfo).port;
