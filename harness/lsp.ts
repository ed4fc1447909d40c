/**
 * The local world's LSP service in the HTTP style of Voltage Flow 2: a just-in-time channel for a wallet
 * with no room to receive.
 *
 *   POST /api/v1/fee      {amount_msat, pubkey}     -> {fee_amount_msat, id}
 *   POST /api/v1/proposal {bolt11, fee_id}          -> {jit_bolt11}
 *
 * The wallet invoices for (amount − fee); the LSP answers its own invoice for the full amount with the
 * SAME payment hash. When that invoice's payment arrives the LSP holds it (it does not know the preimage),
 * opens a zero-confirmation channel to the wallet, pays the wallet's invoice over it, learns the preimage
 * from that payment and claims the held one with it. The world's HTTP server strips the leading `/api`.
 *
 * Fees (defaults, all configurable): 0.4% of the amount (4,000 millionths) with a minimum of 2,000 sats,
 * rounded up to a whole sat; payments from 10,000 to 1,000,000 sats; a fee quote is valid for 10 minutes.
 * The channel opened is max(2 × amount, 100,000 sats), funded by the LSP, nothing pushed.
 *
 * The same LSP answers under `/hostile/<scope>/lsp/api/v1/…`, honestly unless `POST /hostile
 * {"service":"lsp","scope":…,"mode":…}` makes it silent (`never-answers`) or flood (`huge-answer`).
 */
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { hex } from "@scure/base";
import type { PaymentResult } from "../src/engine/lightning/node";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import type { HarnessNode } from "./lightning";
import type { HostileMode } from "./hostile";
import { HttpError, parseJson, type Reply, type RouteTable } from "./server";
import { until } from "./until";

export interface LspFeeParams {
  /** Proportional fee in millionths of the amount. */
  proportionalMillionths: bigint;
  minFeeMsat: bigint;
  minPaymentMsat: bigint;
  maxPaymentMsat: bigint;
  /** How long a fee quote (its id) can be used for a proposal. */
  validitySecs: number;
  /** LSPS2's `max_client_to_self_delay`: the longest delay a client may ask of the LSP (2,016 unless said). */
  maxClientToSelfDelay?: number;
}

export const DEFAULT_LSP_FEES: Readonly<LspFeeParams> = {
  proportionalMillionths: 4_000n,
  minFeeMsat: 2_000_000n,
  minPaymentMsat: 10_000_000n,
  maxPaymentMsat: 1_000_000_000n,
  validitySecs: 600,
};

/** The smallest channel the LSP opens. */
export const LSP_MIN_CHANNEL_SATS = 100_000n;

/** The fee for `amountMsat`: max(minimum, proportional), rounded up to a whole sat. */
export const lspFeeMsat = (p: LspFeeParams, amountMsat: bigint): bigint => {
  const proportional = (amountMsat * p.proportionalMillionths + 999_999n) / 1_000_000n;
  const fee = proportional > p.minFeeMsat ? proportional : p.minFeeMsat;
  return ((fee + 999n) / 1000n) * 1000n;
};

/** The channel opened for a payment of `amountMsat`. */
export const lspChannelSats = (amountMsat: bigint): bigint => {
  const twice = (amountMsat * 2n + 999n) / 1000n;
  return twice > LSP_MIN_CHANNEL_SATS ? twice : LSP_MIN_CHANNEL_SATS;
};

interface Quote {
  readonly amountMsat: bigint;
  readonly pubkey: string;
  readonly feeMsat: bigint;
  readonly expiresAt: number;
}

interface Proposal {
  readonly walletBolt11: string;
  readonly pubkey: string;
  readonly amountMsat: bigint;
  readonly feeMsat: bigint;
  started: boolean;
}

export interface Lsp {
  /** The fee parameters in force; tests may change them. */
  readonly params: LspFeeParams;
  readonly routes: RouteTable;
  /** Channels opened just in time, in order. */
  readonly opened: { readonly pubkey: string; readonly sats: bigint; readonly paymentHash: string }[];
}

const msatOf = (body: Record<string, unknown>, key: string): bigint => {
  const v = body[key];
  const text = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : typeof v === "string" ? v : "";
  if (!/^\d{1,19}$/.test(text)) throw new HttpError(400, `${key} must be a whole number of millisats`);
  return BigInt(text);
};

/**
 * The LSP's answer under `/hostile/<scope>/lsp` in `mode`: a request never answered (`never-answers`), or
 * 50 MB of JSON (`huge-answer`). `honest` is the answer the LSP would give.
 */
export const lspLie = (mode: HostileMode<"lsp">, honest: () => Promise<Reply>): Promise<Reply> => {
  switch (mode) {
    case "never-answers":
      return new Promise<Reply>(() => {});
    case "huge-answer":
      return Promise.resolve({ json: { fee_amount_msat: 1, id: "x", padding: "x".repeat(50_000_000) } });
    default:
      return honest();
  }
};

export const startLsp = (h: HarnessNode, params: Partial<LspFeeParams> = {}): Lsp => {
  const p: LspFeeParams = { ...DEFAULT_LSP_FEES, ...params };
  const quotes = new Map<string, Quote>();
  const proposals = new Map<string, Proposal>();
  const opened: Lsp["opened"] = [];

  const usableTo = (pubkey: string, msat: bigint) =>
    h.node.channels().some((c) => c.peer === pubkey && c.isUsable && c.outboundSats * 1000n >= msat);

  /** Opens the channel (unless one can carry the payment already), pays the wallet, claims the held HTLC. */
  const settle = async (hash: string, prop: Proposal): Promise<void> => {
    const need = prop.amountMsat - prop.feeMsat;
    let result: PaymentResult | null = null;
    try {
      if (!usableTo(prop.pubkey, need)) {
        if (!h.node.isConnected(prop.pubkey)) throw new Error("the client is not connected");
        const sats = lspChannelSats(prop.amountMsat);
        h.node.openChannel(prop.pubkey, sats, 0n);
        opened.push({ pubkey: prop.pubkey, sats, paymentHash: hash });
        await until("the channel to become usable", () => usableTo(prop.pubkey, need), 30_000, 50);
      }
      result = await h.node.payInvoice(prop.walletBolt11, prop.feeMsat);
    } catch (e) {
      console.error(`[lsp] ${hash}: ${String(e)}`);
    }
    if (result?.status === "succeeded") h.node.claim(result.preimage);
    else h.node.failBack(hash);
  };

  h.hold.handler = (hash, amountMsat) => {
    const prop = proposals.get(hash);
    if (!prop || prop.started || amountMsat < prop.amountMsat) return false;
    prop.started = true;
    void settle(hash, prop);
    return true;
  };

  const routes: RouteTable = [
    [
      "POST",
      /^\/v1\/fee$/,
      (_m, body) => {
        const b = parseJson(body);
        const amountMsat = msatOf(b, "amount_msat");
        const pubkey = typeof b.pubkey === "string" ? b.pubkey.toLowerCase() : "";
        if (!/^0[23][0-9a-f]{64}$/.test(pubkey)) throw new HttpError(400, "pubkey must be a node public key");
        if (amountMsat < p.minPaymentMsat)
          throw new HttpError(400, `The amount is below the minimum of ${p.minPaymentMsat / 1000n} sats`);
        if (amountMsat > p.maxPaymentMsat)
          throw new HttpError(400, `The amount is above the maximum of ${p.maxPaymentMsat / 1000n} sats`);
        const feeMsat = lspFeeMsat(p, amountMsat);
        const id = hex.encode(crypto.getRandomValues(new Uint8Array(16)));
        quotes.set(id, { amountMsat, pubkey, feeMsat, expiresAt: Date.now() + p.validitySecs * 1000 });
        return { json: { fee_amount_msat: Number(feeMsat), id } };
      },
    ],
    [
      "POST",
      /^\/v1\/proposal$/,
      (_m, body) => {
        const b = parseJson(body);
        const id = typeof b.fee_id === "string" ? b.fee_id : "";
        const quote = quotes.get(id);
        if (!quote) throw new HttpError(400, "Unknown fee id");
        if (Date.now() >= quote.expiresAt) {
          quotes.delete(id);
          throw new HttpError(400, "The fee id has expired; ask for a new fee");
        }
        const bolt11 = typeof b.bolt11 === "string" ? b.bolt11.trim() : "";
        const invoice = decodeBolt11(bolt11);
        if (!invoice) throw new HttpError(400, "bolt11 is not a valid invoice");
        if (invoice.payeePubkey !== quote.pubkey)
          throw new HttpError(400, "The invoice is not for the node the fee was asked for");
        if (invoice.amountMsat !== quote.amountMsat - quote.feeMsat)
          throw new HttpError(400, "The invoice must be for the amount less the fee");
        const remaining = Math.floor(invoice.expiresAt - Date.now() / 1000);
        if (remaining <= 60) throw new HttpError(400, "The invoice expires too soon");
        if (proposals.has(invoice.paymentHash)) throw new HttpError(400, "This invoice was already wrapped");
        quotes.delete(id);
        const jit = h.node.createInvoice(
          quote.amountMsat,
          invoice.description ?? "",
          remaining,
          hex.decode(invoice.paymentHash),
        );
        proposals.set(invoice.paymentHash, {
          walletBolt11: bolt11,
          pubkey: quote.pubkey,
          amountMsat: quote.amountMsat,
          feeMsat: quote.feeMsat,
          started: false,
        });
        return { json: { jit_bolt11: jit.bolt11 } };
      },
    ],
  ];
  return { params: p, routes, opened };
};

/** How a test node comes by its channel with the LSP (the world's node). */
export interface ChannelWith {
  /** The LSP opens it (a private channel to a payee behind it); else the node does (a payer). */
  readonly byLsp: boolean;
  readonly sats: bigint;
  /** Pushed to the other side as the channel opens. */
  readonly pushMsat: bigint;
}

/**
 * One more node with a confirmed, usable channel to the LSP: a payer of the LSP's own invoices, or a payee
 * two hops from the wallet behind a private channel of the LSP (which may charge a routing fee on the way).
 */
export const startWithChannel = async (
  lsp: HarnessNode,
  startNode: () => Promise<HarnessNode>,
  mine: (n: number) => Promise<unknown>,
  waitForTx: (txid: string) => Promise<void>,
  channel: ChannelWith,
): Promise<HarnessNode> => {
  const node = await startNode();
  const [from, to] = channel.byLsp ? [lsp, node] : [node, lsp];
  const peer = parsePeerAddress(to.address);
  if (!peer) throw new Error(`The address ${to.address} cannot be read`);
  await from.node.connectPeer(peer);
  from.node.openChannel(to.pubkey, channel.sats, channel.pushMsat);
  const pending = await from.waitFor((e) => e.type === "channel_pending" && e.peer === to.pubkey);
  if (pending.type === "channel_pending") await waitForTx(pending.fundingTxid);
  await mine(6);
  await Promise.all([node.node.sync(), lsp.node.sync()]);
  // Usable on both sides: the LSP's side turns usable only once the node's `channel_ready` reaches it, and
  // a payment it forwards before then fails.
  await until(
    "the new node's channel to become usable on both sides",
    () =>
      node.node.channels().some((c) => c.peer === lsp.pubkey && c.isUsable) &&
      lsp.node.channels().some((c) => c.peer === node.pubkey && c.isUsable),
    60_000,
  );
  return node;
};
