import { describe, expect, it } from "vitest";
import { type NewEvent, newEvent } from "../events/make";
import { activityItems, lightningDetails, neverOpened, onchainDetails, ownerFee } from "./activity";
import { channelGroups, deriveViews, FORCE_CLOSE_AFTER_MS, forceCloseOffered } from "./index";
import { channel, channelPending, fold as foldAt, hash, LSP } from "./projections.testing";

const fold = (events: NewEvent[]) => foldAt(events, 1_000_000);

/** A 25,000 sat receive the LSP delivered over a 100,000 sat channel it opened for it, keeping 2,000. */
const jitReceive = (): NewEvent[] => [
  newEvent("ln.invoice_created", {
    payment_hash: hash(1),
    bolt11: "lnbcrt1",
    amount_msat: "23000000",
    description: "",
    labels: ["coffee"],
    expires_at: 9_999_999_999,
  }),
  newEvent("ln.lsp_fee", { payment_hash: hash(1), fee_msat: "2000000", lsp: LSP }),
  channelPending(1, channel(1), LSP, { capacity_sats: "100000", fee_sats: "0", is_outbound: false }),
  newEvent("ln.payment_received", { payment_hash: hash(1), amount_msat: "23000000" }),
];

describe("a receive that opened a channel just in time", () => {
  it("is one row: what the owner received, with the LSP's fee in its details, not the channel's size", () => {
    const s = fold(jitReceive());
    const items = activityItems(s.onchain, {}, s.lightning, s.ecash);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "Lightning", inbound: true, amount_sats: 23_000n });
    const details = lightningDetails(s.lightning, items[0]!.id);
    expect(details).toMatchObject({ amount_sats: 23_000n, fee_sats: 2_000n, status: "succeeded" });
    expect(ownerFee(items[0]!, details!.fee_sats)).toBe(2_000n);
  });

  it("keeps a channel the LSP opened on its own as a channel-open row", () => {
    const s = fold(jitReceive().slice(2, 3));
    const items = activityItems(s.onchain, {}, s.lightning, s.ecash);
    expect(items.map((i) => [i.kind, i.amount_sats])).toEqual([["ChannelOpen", 100_000n]]);
  });
});

describe("the fee a received payment shows", () => {
  it("is never the sender's: an on-chain receive shows none, a plain lightning receive none", () => {
    const s = fold([
      newEvent("onchain.tx_seen", {
        txid: hash(7),
        received: "50000",
        sent: "0",
        fee: "1410",
        labels: [],
        outgoing: false,
      }),
      newEvent("ln.invoice_created", {
        payment_hash: hash(2),
        bolt11: "lnbcrt2",
        amount_msat: "5000000",
        description: "",
        labels: [],
        expires_at: 9_999_999_999,
      }),
      newEvent("ln.payment_received", { payment_hash: hash(2), amount_msat: "5000000" }),
    ]);
    const items = activityItems(s.onchain, {}, s.lightning, s.ecash);
    const chain = items.find((i) => i.kind === "OnChain")!;
    expect(ownerFee(chain, onchainDetails(s.onchain.txs.get(hash(7))!).fee)).toBeNull();
    const ln = items.find((i) => i.kind === "Lightning")!;
    expect(ownerFee(ln, lightningDetails(s.lightning, ln.id)!.fee_sats)).toBeNull();
    // What the owner sends shows its fee, even a zero one.
    expect(ownerFee({ ...chain, inbound: false }, 1_410n)).toBe(1_410n);
    expect(ownerFee({ ...ln, inbound: false }, 0n)).toBe(0n);
  });
});

describe("a channel waiting for confirmations", () => {
  const snapshot = (id: string, ready: boolean) => ({
    channel_id: id,
    peer: LSP,
    outpoint: `${hash(9)}:0`,
    size: "400000",
    balance: ready ? "150000" : "390000",
    reserve: "4000",
    inbound: ready ? "246000" : "6000",
    is_usable: ready,
    is_ready: ready,
  });

  it("is listed as opening, neither online nor offline, and what is ours in it counts as pending", () => {
    const s = fold([
      newEvent("ln.channels_changed", {
        channels: [snapshot(channel(1), true), snapshot(channel(2), false)],
      }),
    ]);
    const v = deriveViews(s);
    // Live: no peer is connected right now, so the open channel is offline.
    const groups = channelGroups(v.channels, new Set());
    expect(groups.opening.map((c) => c.channel_id)).toEqual([channel(2)]);
    expect(groups.offline.map((c) => c.channel_id)).toEqual([channel(1)]);
    expect(groups.online).toEqual([]);
    expect(
      channelGroups(v.channels, new Set([channel(1), channel(2)])).online.map((c) => c.channel_id),
    ).toEqual([channel(1)]);
    expect(v.channel_totals.pending).toBe(394_000n);
    // "Can send" counts the open channel only: the opening one's sats are pending, not sendable.
    expect(v.channel_totals.balance).toBe(150_000n);
    expect(v.channels.find((c) => c.channel_id === channel(2))?.sendable).toBe(0n);
    expect(v.balance.lightning_sendable).toBe(v.channel_totals.balance);
    expect(v.balance.lightning_pending).toBe(v.channel_totals.pending);
  });

  it("whose funding never reached the chain: listed as never opened, counted nowhere, its row no debit", () => {
    const funding = hash(9);
    const s = fold([
      newEvent("onchain.tx_seen", {
        txid: funding,
        received: "0",
        sent: "400383",
        fee: "383",
        labels: [],
        outgoing: true,
      }),
      newEvent("ln.channel_pending", {
        channel_id: channel(2),
        peer: LSP,
        outpoint: `${funding}:0`,
        capacity_sats: "400000",
        fee_sats: "383",
        is_outbound: true,
        labels: [],
      }),
      newEvent("ln.channels_changed", { channels: [snapshot(channel(2), false)] }),
      newEvent("onchain.tx_dropped", { txid: funding, replacedBy: null }),
    ]);
    const v = deriveViews(s);
    const groups = channelGroups(v.channels, new Set());
    expect(groups.never_opened.map((c) => c.channel_id)).toEqual([channel(2)]);
    expect(groups.opening).toEqual([]);
    expect(v.channel_totals).toEqual({ balance: 0n, reserve: 0n, inbound: 0n, pending: 0n });
    expect(v.balance).toMatchObject({ lightning: 0n, lightning_pending: 0n, total: 0n });
    const rows = v.activity.items;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "ChannelOpen", dropped: true });
    expect(neverOpened(rows[0]!)).toBe(true);
  });

  it("is connecting while its peer is dialled, offline only once unreachable, and Force close waits for hours", () => {
    const s = fold([newEvent("ln.channels_changed", { channels: [snapshot(channel(1), true)] })]);
    const v = deriveViews(s);
    const peer = v.channels[0]!.peer;
    const link = (state: "connecting" | "connected" | "unreachable") => [{ pubkey: peer, state, since: 0 }];
    expect(channelGroups(v.channels, new Set(), link("connecting")).connecting).toHaveLength(1);
    expect(channelGroups(v.channels, new Set(), link("connecting")).offline).toEqual([]);
    // A node just started knows nothing of the peer yet: it is dialling it.
    expect(channelGroups(v.channels, new Set(), []).connecting).toHaveLength(1);
    expect(channelGroups(v.channels, new Set(), link("unreachable")).offline).toHaveLength(1);
    expect(forceCloseOffered(0, FORCE_CLOSE_AFTER_MS - 1)).toBe(false);
    expect(forceCloseOffered(0, FORCE_CLOSE_AFTER_MS)).toBe(true);
    expect(FORCE_CLOSE_AFTER_MS).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe("a payment sent over the network", () => {
  it("shows its fee and how many hops each part crossed (a split payment has several)", () => {
    const sent = (n: number, fee: string, paths: number[]): NewEvent[] => [
      newEvent("ln.payment_started", {
        payment_id: hash(n),
        payment_hash: hash(n),
        destination: LSP,
        bolt11: "lnbcrt1",
        amount_msat: "700000000",
        max_fee_msat: "7000000",
        labels: [],
      }),
      newEvent("ln.payment_sent", {
        payment_id: hash(n),
        payment_hash: hash(n),
        preimage: hash(n + 50),
        fee_msat: fee,
      }),
      ...paths.map((hops) => newEvent("ln.payment_path_succeeded", { payment_id: hash(n), hops })),
    ];
    const s = fold([...sent(7, "7500", [5]), ...sent(8, "1400200", [5, 5])]);
    expect(lightningDetails(s.lightning, hash(7))).toMatchObject({ fee_sats: 8n, hops: [5] });
    expect(lightningDetails(s.lightning, hash(8))).toMatchObject({ fee_sats: 1401n, hops: [5, 5] });
    // A part reported for a payment the log never started changes nothing.
    const stray = fold([newEvent("ln.payment_path_succeeded", { payment_id: hash(9), hops: 3 })]);
    expect(lightningDetails(stray.lightning, hash(9))).toBeNull();
  });
});
