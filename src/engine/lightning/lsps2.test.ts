import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LSPS_TOKEN } from "../../../harness/lsps2";
import { DEFAULT_LSP_FEES } from "../../../harness/lsp";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { startWorldWithNode } from "../../../harness/wallet-node";
import type { Harness } from "../../../harness/world";
import { decodeBolt11 } from "../parse/bolt11";
import { LspsRpcError } from "./lsps-rpc";
import {
  cheapestParams,
  LSPS2_BUY,
  LSPS2_ERROR,
  LSPS2_GET_INFO,
  Lsps2Client,
  Lsps2Refusal,
  type OpeningFeeParams,
  openingFeeMsat,
  parseScid,
  scidText,
} from "./lsps2";
import type { LightningNode, NodeEvent } from "./node";
import { parsePeerAddress } from "./socket";
import { OFFER_NOW as NOW, offerParams as params } from "./lsps2.testing";

describe("the opening fee of bLIP-52", () => {
  it("is the minimum fee, or the proportional fee rounded up to a millisat when larger", () => {
    // 0.4% of 50,000,000 msat is 200,000: the minimum of 2,000,000 applies.
    expect(openingFeeMsat(50_000_000n, 2_000_000n, 4_000n)).toBe(2_000_000n);
    // 0.4% of 500,000,000 is exactly 2,000,000: either way.
    expect(openingFeeMsat(500_000_000n, 2_000_000n, 4_000n)).toBe(2_000_000n);
    // One msat more: 2,000,000.004 rounds up.
    expect(openingFeeMsat(500_000_001n, 2_000_000n, 4_000n)).toBe(2_000_001n);
    expect(openingFeeMsat(123_457_000n, 1_000n, 1_234n)).toBe(152_346n);
    expect(openingFeeMsat(1n, 0n, 1n)).toBe(1n);
    expect(openingFeeMsat(0n, 0n, 1_000_000n)).toBe(0n);
    // Beyond 64 bits the params cannot be used.
    expect(openingFeeMsat(2n ** 63n, 0n, 2n)).toBeNull();
  });

  it("picks the cheapest params valid for the amount, now", () => {
    const a = params({ promise: "a" });
    const b = params({
      promise: "b",
      min_fee_msat: "3000000",
      proportional: 2000,
      max_payment_size_msat: "5000000000",
    });
    expect(cheapestParams([a, b], 50_000_000n, NOW)).toEqual({ params: a, feeMsat: 2_000_000n });
    // 1,000,000 sats: a takes 4,000 sats, b its minimum of 3,000.
    expect(cheapestParams([a, b], 1_000_000_000n, NOW)).toEqual({ params: b, feeMsat: 3_000_000n });
    // Above a's maximum only b serves, at 0.2%.
    expect(cheapestParams([a, b], 2_000_000_000n, NOW)).toEqual({ params: b, feeMsat: 4_000_000n });
    // The limits are inclusive.
    expect(cheapestParams([a], 10_000_000n, NOW)).toMatchObject({ params: a });
    expect(cheapestParams([a], 1_000_000_000n, NOW)).toMatchObject({ params: a });
    expect(cheapestParams([a, b], 9_999_999n, NOW)).toEqual({ reason: "below_min", limitMsat: 10_000_000n });
    expect(cheapestParams([a, b], 5_000_000_001n, NOW)).toEqual({
      reason: "above_max",
      limitMsat: 5_000_000_000n,
    });
    // Expired params serve nothing; params that would shorten the two weeks the wallet asks of the LSP are
    // refused, saying the most they allow.
    expect(cheapestParams([params({ valid_until: "2029-12-31T23:59:59Z" })], 50_000_000n, NOW)).toEqual({
      reason: "none",
    });
    expect(cheapestParams([params({ valid_until: "2030-01-01T00:00:00Z" })], 50_000_000n, NOW)).toEqual({
      reason: "none",
    });
    expect(cheapestParams([params({ max_client_to_self_delay: 143 })], 50_000_000n, NOW)).toEqual({
      reason: "delay_refused",
      maxDelay: 143,
    });
    expect(
      cheapestParams(
        [params({ max_client_to_self_delay: 2015 }), params({ max_client_to_self_delay: 1008 })],
        50_000_000n,
        NOW,
      ),
    ).toEqual({ reason: "delay_refused", maxDelay: 2015 });
    expect(cheapestParams([params({ max_client_to_self_delay: 2016 })], 50_000_000n, NOW)).toMatchObject({
      feeMsat: expect.any(BigInt),
    });
    // A fee that would take the whole payment.
    expect(cheapestParams([params({ min_payment_size_msat: "1000" })], 2_000_000n, NOW)).toEqual({
      reason: "fee_exceeds_amount",
      feeMsat: 2_000_000n,
    });
  });

  it("writes a short channel id as block x transaction x output", () => {
    const scid = (700_000n << 40n) | (1234n << 16n) | 1n;
    expect(scidText(scid)).toBe("700000x1234x1");
    expect(parseScid("700000x1234x1")).toBe(scid);
    expect(parseScid("16777216x0x0")).toBeNull();
    expect(parseScid("1x2")).toBeNull();
  });
});

let h: Harness;
let wallet: LightningNode;
const events: NodeEvent[] = [];
/** Promised opening fees of the wallet's LSPS2 invoices, by payment hash. */
const promised = new Map<string, bigint>();
let client: Lsps2Client;

const received = (hash: string) =>
  events.find(
    (e): e is Extract<NodeEvent, { type: "payment_received" }> =>
      e.type === "payment_received" && e.paymentHash === hash,
  );

const pay = async (bolt11: string) => (await h.payer()).node.payInvoice(bolt11, 1_000_000n);

/** A fresh just-in-time invoice for `sats`, its fee promised. */
const jitInvoice = async (sats: bigint) => {
  const inv = await client.invoice(sats * 1000n, "jit", 3600);
  promised.set(inv.paymentHash, inv.feeMsat);
  return inv;
};

beforeAll(async () => {
  ({ world: h, node: wallet } = await startWorldWithNode(events, (world) => ({
    trustedZeroConfPeer: () => world.lightning.pubkey,
    claimPolicy: (hash, _amount, skimmed) => skimmed <= (promised.get(hash) ?? 0n),
    paymentTimeoutMs: 30_000,
  })));
  const lsp = parsePeerAddress(h.lsps2.connectionString);
  if (!lsp) throw new Error("The world's LSPS2 connection string cannot be read");
  client = new Lsps2Client(wallet, lsp, DEFAULT_LSPS_TOKEN);
}, 180_000);
stopAfterAll(() => [wallet, h]);

describe("a just-in-time channel bought over the lightning connection (LSPS2)", () => {
  it("get_info and buy: an invoice through the LSP's intercept SCID; the payment arrives less the minimum fee", async () => {
    const menu = await client.menu();
    expect(menu).toHaveLength(2);
    expect(menu[0]).toMatchObject({ min_fee_msat: "2000000", proportional: 4000 });
    const inv = await jitInvoice(50_000n);
    expect(inv.feeMsat).toBe(DEFAULT_LSP_FEES.minFeeMsat);
    const decoded = decodeBolt11(inv.bolt11)!;
    expect(decoded).toMatchObject({
      payeePubkey: wallet.nodeId,
      amountMsat: 50_000_000n,
      paymentHash: inv.paymentHash,
    });
    expect(wallet.channels()).toHaveLength(0);

    expect(await pay(inv.bolt11)).toMatchObject({ status: "succeeded" });
    await until("received", () => received(inv.paymentHash) !== undefined);
    expect(received(inv.paymentHash)?.amountMsat).toBe(48_000_000n);
    expect(h.lsps2.opened).toHaveLength(1);
    expect(h.lsps2.opened[0]).toMatchObject({
      pubkey: wallet.nodeId,
      sats: 100_000n,
      forwardedMsat: 48_000_000n,
    });
    const channel = wallet.channels()[0]!;
    expect(channel).toMatchObject({ peer: h.lightning.pubkey, sizeSats: 100_000n, isOutbound: false });
    // A zero-confirmation channel: usable before any block.
    expect(channel.confirmations ?? 0).toBe(0);
  }, 240_000);

  it("a second receive uses the new channel, with no second fee", async () => {
    const { bolt11, paymentHash } = wallet.createInvoice(20_000_000n, "again");
    expect(await pay(bolt11)).toMatchObject({ status: "succeeded" });
    await until("received", () => received(paymentHash) !== undefined);
    expect(received(paymentHash)?.amountMsat).toBe(20_000_000n);
    expect(h.lsps2.opened).toHaveLength(1);
    expect(wallet.channels()).toHaveLength(1);
  }, 180_000);

  it("charges exactly the proportional fee rounded up to a millisat", async () => {
    const menu = h.lsps2.menu;
    h.lsps2.menu = [{ ...DEFAULT_LSP_FEES, proportionalMillionths: 1_234n, minFeeMsat: 1_000n }];
    try {
      const inv = await jitInvoice(123_457n);
      expect(inv.feeMsat).toBe(152_346n);
      expect(await pay(inv.bolt11)).toMatchObject({ status: "succeeded" });
      await until("received", () => received(inv.paymentHash) !== undefined);
      expect(received(inv.paymentHash)?.amountMsat).toBe(123_457_000n - 152_346n);
      expect(h.lsps2.opened).toHaveLength(2);
      expect(h.lsps2.opened[1]).toMatchObject({ sats: 246_914n, forwardedMsat: 123_304_654n });
    } finally {
      h.lsps2.menu = menu;
    }
  }, 240_000);

  it("refuses a payment the LSP skimmed more than promised: it goes back to the payer, nothing is claimed", async () => {
    // What the wallet holds once the payments so far are settled on its channels.
    const before = 48_000n + 20_000n + 123_304n;
    await until("settled", () => wallet.balanceSats() === before);
    h.lsps2.greedyMsat = 1_000n;
    try {
      const inv = await jitInvoice(600_000n);
      // 600,000 sats: 0.4% is 2,400 sats, above the minimum.
      expect(inv.feeMsat).toBe(2_400_000n);
      const r = await pay(inv.bolt11);
      expect(r.status).toBe("failed");
      await until("refused", () => events.some((e) => e.type === "payment_refused"));
      expect(events.find((e) => e.type === "payment_refused")).toEqual({
        type: "payment_refused",
        paymentHash: inv.paymentHash,
        amountMsat: 600_000_000n - 2_401_000n,
        skimmedMsat: 2_401_000n,
      });
      expect(received(inv.paymentHash)).toBeUndefined();
      // The LSP's channel stays, empty on the wallet's side: the wallet paid nothing for it, and the
      // channels it had hold what they held.
      expect(h.lsps2.opened).toHaveLength(3);
      const channels = wallet.channels();
      // Nothing of it is the wallet's: not even the reserve counts towards the balance.
      expect(channels.find((c) => c.sizeSats === 1_200_000n)).toMatchObject({
        outboundSats: 0n,
        sendableSats: 0n,
        reserveSats: 0n,
        isOutbound: false,
      });
      expect(wallet.balanceSats()).toBe(before);
    } finally {
      h.lsps2.greedyMsat = 0n;
    }
  }, 240_000);

  it("answers bLIP-52's errors: unknown token, changed or expired params, payment sizes out of range", async () => {
    const lsp = h.lightning.pubkey;
    const ask = (method: string, p: Record<string, unknown>) =>
      wallet.lsps0.request(lsp, method, p).then(
        () => null,
        (e: unknown) => (e instanceof LspsRpcError ? e.code : String(e)),
      );
    expect(await ask(LSPS2_GET_INFO, { token: "nope" })).toBe(LSPS2_ERROR.unrecognizedOrStaleToken);
    await expect(new Lsps2Client(wallet, client.lsp, "nope").quote(50_000_000n)).rejects.toBeInstanceOf(
      Lsps2Refusal,
    );
    const [offer] = await client.menu();
    if (!offer) throw new Error("no menu");
    const buy = (o: OpeningFeeParams, size: bigint) =>
      ask(LSPS2_BUY, { opening_fee_params: o, payment_size_msat: size.toString() });
    expect(await buy({ ...offer, min_fee_msat: "1" }, 50_000_000n)).toBe(LSPS2_ERROR.invalidOpeningFeeParams);
    expect(await buy(offer, 9_999_999n)).toBe(LSPS2_ERROR.paymentSizeTooSmall);
    expect(await buy(offer, 1_000_000_001n)).toBe(LSPS2_ERROR.paymentSizeTooLarge);
    // Params the LSP really made, but whose time is up.
    const { promise: _, ...stale } = { ...offer, valid_until: new Date(Date.now() - 1000).toISOString() };
    expect(await buy({ ...stale, promise: h.lsps2.promise(stale) }, 50_000_000n)).toBe(
      LSPS2_ERROR.invalidOpeningFeeParams,
    );
    // The wallet itself does not offer to buy from a menu whose time is up.
    const menu = h.lsps2.menu;
    h.lsps2.menu = menu.map((m) => ({ ...m, validitySecs: 0 }));
    try {
      await expect(client.quote(50_000_000n)).rejects.toMatchObject({ refusal: { reason: "none" } });
    } finally {
      h.lsps2.menu = menu;
    }
    await expect(client.quote(9_000_000n)).rejects.toMatchObject({
      refusal: { reason: "below_min", limitMsat: 10_000_000n },
    });
  }, 180_000);
});
