/**
 * The local world's LSPS2 (bLIP-52) service on its lightning node: just-in-time channels bought over the
 * lightning connection with LSPS0 JSON-RPC (custom messages of type 37913).
 *
 *   lsps2.get_info {token}                            -> {opening_fee_params_menu}
 *   lsps2.buy {opening_fee_params, payment_size_msat} -> {jit_channel_scid, lsp_cltv_expiry_delta: 144,
 *                                                         client_trusts_lsp: false}
 *
 * Each menu entry's promise is an HMAC-SHA256 of its fields under a secret of the service, so params the
 * client changed, or whose `valid_until` passed, are refused by buy (201). A payment to the SCID bought is
 * intercepted: the LSP opens a zero-confirmation channel of max(2 × payment, 100,000 sats) to the client
 * and forwards the payment less the opening fee, max(min_fee_msat, ceil(payment × proportional / 10⁶)).
 *
 * The menu (default: the HTTP LSP's fees, and a second entry at 0.2% with a 3,000 sat minimum for
 * payments up to 5,000,000 sats, valid for an hour), the token and `greedyMsat` (kept beyond the promised
 * fee, to test that the wallet refuses) can be changed by tests.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import { LspsRpcError, RPC_INVALID_PARAMS, RPC_METHOD_NOT_FOUND } from "../src/engine/lightning/lsps-rpc";
import {
  LSPS2_BUY,
  LSPS2_ERROR,
  LSPS2_GET_INFO,
  type OpeningFeeParams,
  openingFeeMsat,
  readOpeningFeeParams,
  scidText,
} from "../src/engine/lightning/lsps2";
import type { NodeEvent } from "../src/engine/lightning/node";
import type { HarnessNode } from "./lightning";
import { DEFAULT_LSP_FEES, type LspFeeParams, lspChannelSats } from "./lsp";
import { HttpError, parseJson, type RouteTable } from "./server";
import { until } from "./until";

/** The token the world's LSP knows unless a test changes it. */
export const DEFAULT_LSPS_TOKEN = "local-world";
/** What the LSP needs between the HTLC it receives and the one it forwards over the new channel. */
export const LSPS2_CLTV_EXPIRY_DELTA = 144;

export const DEFAULT_LSPS2_MENU: readonly Readonly<LspFeeParams>[] = [
  DEFAULT_LSP_FEES,
  {
    proportionalMillionths: 2_000n,
    minFeeMsat: 3_000_000n,
    minPaymentMsat: 10_000_000n,
    maxPaymentMsat: 5_000_000_000n,
    validitySecs: 3_600,
  },
];

interface Purchase {
  readonly client: string;
  readonly paymentSizeMsat: bigint;
  readonly feeMsat: bigint;
  used: boolean;
}

export interface Lsps2Service {
  /** `pubkey@host:port` of the LSP's node. */
  readonly connectionString: string;
  token: string;
  /** The menu get_info answers, cheapest entries not necessarily first; tests may change it. */
  menu: LspFeeParams[];
  /** Kept beyond the promised fee of each payment forwarded (0: an honest LSP). */
  greedyMsat: bigint;
  /** Channels opened just in time, in order, with what was forwarded over each. */
  readonly opened: {
    readonly pubkey: string;
    readonly sats: bigint;
    readonly scid: bigint;
    readonly paymentSizeMsat: bigint;
    readonly forwardedMsat: bigint;
  }[];
  /** Signs params as this LSP would, e.g. to check that a client's change to them is refused. */
  readonly promise: (params: Omit<OpeningFeeParams, "promise">) => string;
  /**
   * `POST /lsps2/greedy {msat}` sets `greedyMsat`; `POST /lsps2/max-delay {blocks}` sets every menu entry's
   * `max_client_to_self_delay` (`{"blocks": null}`: back to 2,016) — for tests in a browser, which reach the
   * world over HTTP.
   */
  readonly routes: RouteTable;
  readonly stop: () => void;
}

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};

export const startLsps2 = (
  h: HarnessNode,
  menu: readonly LspFeeParams[] = DEFAULT_LSPS2_MENU,
): Lsps2Service => {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const purchases = new Map<bigint, Purchase>();

  const promise = (p: Omit<OpeningFeeParams, "promise">): string => {
    const mac = hmac.create(sha256, secret);
    mac.update(u64(BigInt(p.min_fee_msat)));
    mac.update(u32(p.proportional));
    mac.update(new TextEncoder().encode(p.valid_until));
    mac.update(u32(p.min_lifetime));
    mac.update(u32(p.max_client_to_self_delay));
    mac.update(u64(BigInt(p.min_payment_size_msat)));
    mac.update(u64(BigInt(p.max_payment_size_msat)));
    return hex.encode(mac.digest());
  };

  const service: Lsps2Service = {
    connectionString: h.address,
    token: DEFAULT_LSPS_TOKEN,
    menu: menu.map((m) => ({ ...m })),
    greedyMsat: 0n,
    opened: [],
    promise,
    routes: [
      [
        "POST",
        /^\/lsps2\/greedy$/,
        (_m, body) => {
          const msat = parseJson(body).msat;
          if (typeof msat !== "number" || !Number.isSafeInteger(msat) || msat < 0)
            throw new HttpError(400, "msat must be a whole number of millisats");
          service.greedyMsat = BigInt(msat);
          return { json: { greedy_msat: msat } };
        },
      ],
      [
        "POST",
        /^\/lsps2\/max-delay$/,
        (_m, body) => {
          const blocks = parseJson(body).blocks;
          if (
            blocks !== null &&
            (typeof blocks !== "number" || !Number.isInteger(blocks) || blocks < 0 || blocks > 0xffff)
          )
            throw new HttpError(400, "blocks must be a whole number of blocks up to 65535, or null");
          service.menu = service.menu.map(({ maxClientToSelfDelay: _, ...m }) =>
            blocks === null ? m : { ...m, maxClientToSelfDelay: blocks },
          );
          return { json: { max_client_to_self_delay: blocks ?? 2_016 } };
        },
      ],
    ],
    stop: () => {
      h.node.lsps0.serve = null;
      off();
    },
  };

  const offer = (m: LspFeeParams): OpeningFeeParams => {
    const params = {
      min_fee_msat: m.minFeeMsat.toString(),
      proportional: Number(m.proportionalMillionths),
      valid_until: new Date(Date.now() + m.validitySecs * 1000).toISOString(),
      min_lifetime: 1_008,
      max_client_to_self_delay: m.maxClientToSelfDelay ?? 2_016,
      min_payment_size_msat: m.minPaymentMsat.toString(),
      max_payment_size_msat: m.maxPaymentMsat.toString(),
    };
    return { ...params, promise: promise(params) };
  };

  const buy = (client: string, body: Record<string, unknown>) => {
    const params = readOpeningFeeParams(body.opening_fee_params);
    const { promise: given, ...rest } = params ?? ({ promise: "" } as OpeningFeeParams);
    if (!params || given !== promise(rest) || Date.parse(params.valid_until) <= Date.now())
      throw new LspsRpcError(LSPS2_ERROR.invalidOpeningFeeParams, "invalid_opening_fee_params");
    const size = typeof body.payment_size_msat === "string" ? body.payment_size_msat : "";
    if (!/^\d{1,20}$/.test(size)) throw new LspsRpcError(RPC_INVALID_PARAMS, "payment_size_msat is required");
    const paymentSizeMsat = BigInt(size);
    const feeMsat = openingFeeMsat(paymentSizeMsat, BigInt(params.min_fee_msat), BigInt(params.proportional));
    if (
      paymentSizeMsat < BigInt(params.min_payment_size_msat) ||
      feeMsat === null ||
      feeMsat >= paymentSizeMsat
    )
      throw new LspsRpcError(LSPS2_ERROR.paymentSizeTooSmall, "payment_size_too_small");
    if (paymentSizeMsat > BigInt(params.max_payment_size_msat))
      throw new LspsRpcError(LSPS2_ERROR.paymentSizeTooLarge, "payment_size_too_large");
    const scid = h.node.interceptScid();
    purchases.set(scid, { client, paymentSizeMsat, feeMsat, used: false });
    return {
      jit_channel_scid: scidText(scid),
      lsp_cltv_expiry_delta: LSPS2_CLTV_EXPIRY_DELTA,
      client_trusts_lsp: false,
    };
  };

  h.node.lsps0.serve = async (peer, method, params) => {
    if (method === LSPS2_GET_INFO) {
      if (params.token !== service.token)
        throw new LspsRpcError(LSPS2_ERROR.unrecognizedOrStaleToken, "unrecognized_or_stale_token");
      return { opening_fee_params_menu: service.menu.map(offer) };
    }
    if (method === LSPS2_BUY) return buy(peer, params);
    throw new LspsRpcError(RPC_METHOD_NOT_FOUND, "Method not found");
  };

  /** Opens the channel, waits until it is usable, and forwards the payment less the fee. */
  const open = async (e: Extract<NodeEvent, { type: "htlc_intercepted" }>, p: Purchase): Promise<void> => {
    const before = new Set(h.node.channels().map((c) => c.channelId));
    const sats = lspChannelSats(p.paymentSizeMsat);
    h.node.openChannel(p.client, sats, 0n);
    const forwardMsat = e.expectedOutboundMsat - p.feeMsat - service.greedyMsat;
    const fresh = () =>
      h.node.channels().find((c) => c.peer === p.client && !before.has(c.channelId) && c.isUsable);
    await until("the channel to become usable", () => fresh() !== undefined, 30_000, 50);
    h.node.forwardIntercepted(e.interceptId, fresh()!.channelId, p.client, forwardMsat);
    service.opened.push({
      pubkey: p.client,
      sats,
      scid: e.scid,
      paymentSizeMsat: p.paymentSizeMsat,
      forwardedMsat: forwardMsat,
    });
  };

  const off = h.on((e) => {
    if (e.type !== "htlc_intercepted") return;
    const p = purchases.get(e.scid);
    if (!p) return;
    // One payment per SCID bought, of at least the size bought, to a client still online.
    if (p.used || e.expectedOutboundMsat < p.paymentSizeMsat || !h.node.isConnected(p.client)) {
      h.node.failIntercepted(e.interceptId);
      return;
    }
    p.used = true;
    void open(e, p).catch((err) => {
      console.error(`[lsps2] ${e.paymentHash}: ${String(err)}`);
      h.node.failIntercepted(e.interceptId);
    });
  });

  return service;
};
