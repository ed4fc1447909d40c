/**
 * How the world's Esplora API and price feed lie when a scope asks them to (see `hostile.ts`). Each mode
 * takes the honest answer (or skips it) and turns it into what an attacker's server would send.
 */
import { randomBytes } from "node:crypto";
import type { HostileSetting } from "./hostile";
import type { Reply } from "./server";

/** What the server does instead of answering honestly. */
export type Lie =
  | { readonly kind: "reply"; readonly reply: Reply }
  /** Accepts the request and never answers. */
  | { readonly kind: "hang" }
  /** Answers `body` a byte at a time, one every `everyMs`. */
  | { readonly kind: "drip"; readonly body: string; readonly everyMs: number };

const FEE_TARGETS = ["1", "2", "3", "4", "5", "6", "10", "144", "504", "1008"];

/** Every `value` (and funded/spent sum) in an Esplora answer, rewritten by `f`. */
const rewriteValues = (json: unknown, f: (v: number) => number): unknown => {
  if (Array.isArray(json)) return json.map((x) => rewriteValues(x, f));
  if (json && typeof json === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) {
      out[k] =
        typeof v === "number" && (k === "value" || k === "funded_txo_sum" || k === "spent_txo_sum")
          ? f(v)
          : rewriteValues(v, f);
    }
    return out;
  }
  return json;
};

/** A transaction the chain never saw, "confirmed" at `height`, paying `sats` to `script`. */
const fakeTx = (script: string, address: string, sats: number, height: number) => ({
  txid: randomBytes(32).toString("hex"),
  version: 2,
  locktime: 0,
  vin: [
    {
      txid: randomBytes(32).toString("hex"),
      vout: 0,
      prevout: null,
      scriptsig: "",
      witness: [],
      is_coinbase: false,
      sequence: 4294967293,
    },
  ],
  vout: [
    { scriptpubkey: script, scriptpubkey_address: address, scriptpubkey_type: "v0_p2wpkh", value: sats },
  ],
  size: 200,
  weight: 800,
  fee: 1000,
  status: {
    confirmed: true,
    block_height: height,
    block_hash: randomBytes(32).toString("hex"),
    block_time: 1,
  },
});

export interface LieContext {
  readonly method: string;
  readonly path: string;
  /** The honest answer (not asked for by modes that never answer honestly). */
  readonly honest: () => Promise<Reply>;
  /** The output script (hex) of a `bcrt1` address, for answers about it. */
  readonly scriptOf: (address: string) => string;
  readonly tipHeight: () => number;
}

export const esploraLie = async (setting: HostileSetting<"esplora">, c: LieContext): Promise<Lie> => {
  const reply = (r: Reply): Lie => ({ kind: "reply", reply: r });
  switch (setting.mode) {
    case "hang":
      return { kind: "hang" };
    case "slow-drip": {
      const honest = await c.honest();
      const body = honest.json !== undefined ? JSON.stringify(honest.json) : (honest.text ?? "");
      return { kind: "drip", body, everyMs: Number(setting.options.everyMs ?? 500) };
    }
    case "broadcast-lie":
      // The transaction is dropped; the answer says all went well, in a page instead of a txid.
      if (c.method === "POST" && c.path === "/tx")
        return reply({ text: "<!doctype html><html><body><h1>Transaction accepted</h1></body></html>" });
      return reply(await c.honest());
    case "broadcast-refused":
      // The node's refusal in its own words (`text`), however long; the transaction is not taken.
      if (c.method === "POST" && c.path === "/tx")
        return reply({ status: 400, text: String(setting.options.text ?? "bad-txns-inputs-missingorspent") });
      return reply(await c.honest());
    case "broadcast-hang":
      if (c.method === "POST" && c.path === "/tx") return { kind: "hang" };
      return reply(await c.honest());
    case "fee-spike":
      if (c.path === "/fee-estimates") {
        const rate = Number(setting.options.rate ?? 5000);
        return reply({ json: Object.fromEntries(FEE_TARGETS.map((t) => [t, rate])) });
      }
      return reply(await c.honest());
    case "non-numeric-fees":
      if (c.path === "/fee-estimates")
        return reply({ json: Object.fromEntries(FEE_TARGETS.map((t) => [t, "abc"])) });
      return reply(await c.honest());
    default:
      break;
  }
  const honest = await c.honest();
  if (honest.json === undefined) return reply(honest);
  switch (setting.mode) {
    case "malformed-json":
      // Cut in the middle: what a proxy that dropped the connection passes on.
      return reply({ status: honest.status, text: JSON.stringify(honest.json).slice(0, 20) });
    case "inflated-values":
      return reply({ ...honest, json: rewriteValues(honest.json, () => 9_000_000_000_000_000) });
    case "negative-values":
      return reply({ ...honest, json: rewriteValues(honest.json, (v) => -v - 99_400_383) });
    case "fake-confirmed": {
      const m = c.path.match(/^\/address\/([^/]+)\/txs$/);
      if (!m || !Array.isArray(honest.json)) return reply(honest);
      const address = m[1]!;
      const fake = fakeTx(c.scriptOf(address), address, 50_000_000, c.tipHeight());
      return reply({ ...honest, json: [fake, ...honest.json] });
    }
    default:
      return reply(honest);
  }
};

/** The price feed's lie: a price no currency could have (`value`, 1e308 unless said). */
export const priceLie = (setting: HostileSetting<"price">, currency: string): Reply => ({
  json: { currency, price: setting.options.value ?? 1e308 },
});
