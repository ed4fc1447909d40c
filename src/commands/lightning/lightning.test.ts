import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { deriveViews, foldEvents } from "../../projections";
import { WalletHost } from "../host/host";
import { mineAndSyncHost, ok, openWorldHost, testCipher, worldLspConfig } from "../host/host.testing";
import type { AllViews } from "../../projections/live";
import type { WalletConfig } from "../../config";
import { stopAfterAll } from "../../../harness/stop-after-all";

let h: Harness;
let config: WalletConfig;
const db = new WalletDb("lightning-host");
let host: WalletHost;
let views: Partial<AllViews> = {};
/** The node's load stages as the live state showed them, each change once. */
let stages: (string | null)[] = [];

const open = async () => {
  host = await openWorldHost(db, config, (v) => {
    views = { ...views, ...v };
    const stage = v.live ? `${v.live.lightning}/${v.live.lightning_stage}` : null;
    if (stage && stage !== stages.at(-1)) stages.push(stage);
  });
  views = host.views();
};

const mine = (n: number) => mineAndSyncHost(h, host, n);

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  config = worldLspConfig(h);
  await open();
}, 180_000);

stopAfterAll(() => [host, h]);

describe("lightning in the wallet (host, node and local world together)", () => {
  it("opens a channel to the LSP from on-chain funds and shows it once confirmed", async () => {
    ok(await host.run({ _tag: "CreateWallet" }));
    await host.whenLightning();
    expect(views.live?.lightning).toBe("ready");
    const { address } = ok<{ address: string }>(await host.run({ _tag: "GetNewAddress", labels: [] }));
    await h.faucet(address, 300_000n);
    await mine(1);
    // The whole balance sweeps everything into the channel, its fee out of it; less is a plain payment.
    const whole = ok<{ feeSats: bigint; amountSats: bigint; sweep: boolean }>(
      await host.run({ _tag: "EstimateChannelOpenFee", amountSats: 300_000n }),
    );
    expect(whole.sweep).toBe(true);
    expect(whole.amountSats + whole.feeSats).toBe(300_000n);
    expect(ok(await host.run({ _tag: "EstimateChannelOpenFee", amountSats: 200_000n }))).toMatchObject({
      sweep: false,
      amountSats: 200_000n,
    });
    const tooSmall = await host.run({ _tag: "OpenChannel", amountSats: 99_999n });
    expect(tooSmall).toMatchObject({ ok: false, error: { key: "swap.channel_too_small" } });
    ok(await host.run({ _tag: "OpenChannel", amountSats: 200_000n }));
    await until(
      "channel open in activity",
      () => views.activity?.items.some((i) => i.kind === "ChannelOpen") ?? false,
    );
    // The funding transaction is shown as the channel open, not as an on-chain send.
    expect(views.activity?.items.filter((i) => i.kind === "OnChain")).toHaveLength(1);
    const open = [...host.views().activity.items].find((i) => i.kind === "ChannelOpen")!;
    const details = ok<{ txid: string }>(await host.run({ _tag: "GetChannelEvent", id: open.id }));
    await h.waitForTx(details.txid);
    // While its funding waits in the mempool the channel is the owner's, pending: nothing of it can be sent.
    await until("opening channel pending", () => (views.balance?.lightning_pending ?? 0n) > 190_000n);
    expect(views.balance).toMatchObject({ lightning: 0n, lightning_sendable: 0n });
    expect(views.channel_totals).toMatchObject({ balance: 0n, pending: views.balance?.lightning_pending });
    expect(await host.run({ _tag: "EstimateLightningFee", amountSats: 1_000n })).toMatchObject({
      ok: false,
      error: { key: "send.error_over_sendable" },
    });
    await mine(6);
    await until("usable channel", () => views.channels?.some((c) => c.is_usable) ?? false);
    await until("channel counted", () => (views.balance?.lightning ?? 0n) > 190_000n);
    expect(views.balance?.lightning_pending).toBe(0n);
    expect(views.balance?.confirmed).toBeLessThan(100_000n);
    // What can leave is what the channels screen says can be sent: the reserve stays back.
    const sendable = views.balance?.lightning_sendable ?? 0n;
    expect(sendable).toBe(views.channel_totals?.balance);
    expect(sendable).toBeLessThan(
      (views.balance?.lightning ?? 0n) - (views.channel_totals?.reserve ?? 0n) + 1n,
    );
    expect(await host.run({ _tag: "EstimateLightningFee", amountSats: sendable + 1n })).toMatchObject({
      ok: false,
      error: { key: "send.error_over_sendable", values: { max: sendable.toString() } },
    });
    ok(await host.run({ _tag: "EstimateLightningFee", amountSats: sendable }));
  }, 180_000);

  it("pays an invoice of the LSP's node and receives one from it", async () => {
    const { bolt11 } = h.lightning.node.createInvoice(20_000_000n, "coffee");
    const fee = ok<{ maxFeeSats: bigint }>(
      await host.run({ _tag: "EstimateLightningFee", amountSats: 20_000n }),
    );
    expect(fee.maxFeeSats).toBe(200n);
    const paid = ok<{ status: string; amountSats: bigint }>(
      await host.run({ _tag: "PayInvoice", bolt11, amountSats: 20_000n }),
    );
    expect(paid).toMatchObject({ status: "succeeded", amountSats: 20_000n });
    await until("settled at the LSP", () =>
      h.lightning.node.channels().some((c) => c.outboundSats >= 5_000n),
    );
    const inv = ok<{ bolt11: string; paymentHash: string }>(
      await host.run({ _tag: "CreateInvoice", amountSats: 5_000n, labels: ["tip"] }),
    );
    expect(ok(await host.run({ _tag: "GetInvoice", paymentHash: inv.paymentHash }))).toMatchObject({
      paid: false,
    });
    expect((await h.lightning.node.payInvoice(inv.bolt11, 100_000n)).status).toBe("succeeded");
    await until("paid", () =>
      (views.activity?.items ?? []).some(
        (i) => i.kind === "Lightning" && i.inbound && i.amount_sats === 5_000n,
      ),
    );
    expect(ok(await host.run({ _tag: "GetInvoice", paymentHash: inv.paymentHash }))).toMatchObject({
      paid: true,
      amountSats: 5_000n,
    });
  }, 180_000);

  it("makes an invoice while a lightning address's server never answers: a silent server delays only its own command", async () => {
    h.hostility.set("lnurl", "silent", "never-answers");
    try {
      const { url } = h.lnurl.addPay({
        name: "silent",
        minSendable: 1_000n,
        maxSendable: 1_000_000_000n,
        description: "Never answers",
      });
      const reading = host.run({ _tag: "DecodeLnurl", lnurl: url });
      const invoice = host.run({ _tag: "CreateInvoice", amountSats: 2_000n, labels: [] });
      expect(await Promise.race([invoice.then(() => "invoice"), reading.then(() => "lnurl")])).toBe(
        "invoice",
      );
      ok(await invoice);
      // The silent read ends on its own, with the catalogue's words, when its time is up.
      expect(await reading).toMatchObject({ ok: false, error: { key: "lnurl.error_unreachable" } });
    } finally {
      h.hostility.set("lnurl", "silent", null);
    }
  }, 180_000);

  it("refuses an invoice it cannot pay with the catalogue's words, recording nothing", async () => {
    // The node records channel changes of its own meanwhile; a refused payment adds no payment event.
    const payments = async () => (await readEvents(db)).filter((e) => e.type.startsWith("ln.payment")).length;
    const before = await payments();
    const { bolt11 } = h.lightning.node.createInvoice(1_000_000_000n, "too much");
    const r = await host.run({ _tag: "PayInvoice", bolt11, amountSats: 1_000_000n });
    expect(r).toMatchObject({ ok: false, error: { key: "send.error_low_balance" } });
    // The worker pays only the amount the owner confirmed: an invoice for another amount is refused.
    const other = h.lightning.node.createInvoice(50_000_000n, "not what was shown");
    const mismatch = await host.run({ _tag: "PayInvoice", bolt11: other.bolt11, amountSats: 1_000n });
    expect(mismatch).toMatchObject({ ok: false, error: { key: "send.error_invoice_match" } });
    const bad = await host.run({ _tag: "PayInvoice", bolt11: "lnbc1notaninvoice", amountSats: 1n });
    expect(bad).toMatchObject({ ok: false, error: { message: "Invalid payment request" } });
    expect(await payments()).toBe(before);
  });

  it("after a restart shows the same channels, balance and activity, and the log folds to them", async () => {
    // Stopping writes what the node still had to report; the views after that are what must come back.
    await host.stop();
    const before = host.views();
    stages = [];
    await open();
    // Home and on-chain do not wait for the node: the balance is there while it starts.
    expect(views.live?.lightning).toBe("starting");
    expect(views.balance).toEqual(before.balance);
    await host.whenLightning();
    expect(stages).toEqual(["starting/loading", "starting/restoring", "starting/syncing", "ready/null"]);
    const after = host.views();
    expect(after.channels).toEqual(before.channels);
    expect(after.balance).toEqual(before.balance);
    expect(after.activity).toEqual(before.activity);
    const peer = after.channels[0]!.peer;
    await until("peer back online", () => views.live?.online_peers.includes(peer) ?? false);
    const { live: _live, ...folded } = host.views();
    expect(deriveViews(foldEvents(await readEvents(db)))).toEqual(folded);
  }, 180_000);

  it("pays the moment the wallet opens, and while its channel's peer reconnects, without being told to wait", async () => {
    const inboundBefore = host.views().channels[0]!.inbound;
    await host.stop();
    await open();
    // Asked for at once, as a person pays the moment home shows: it waits for the node and its channel.
    const { bolt11 } = h.lightning.node.createInvoice(1_000_000n, "at once");
    const paid = await host.run({ _tag: "PayInvoice", bolt11, amountSats: 1_000n });
    expect(paid).toMatchObject({ ok: true, value: { status: "succeeded" } });
    expect(views.live?.peer_status).toEqual([
      expect.objectContaining({ pubkey: h.lightning.pubkey, state: "connected" }),
    ]);
    // The LSP drops the connection; a payment asked for now waits for the redial and goes through.
    const again = h.lightning.node.createInvoice(1_000_000n, "while reconnecting");
    h.lightning.node.disconnectPeer(views.live?.node_id ?? "");
    const second = await host.run({ _tag: "PayInvoice", bolt11: again.bolt11, amountSats: 1_000n });
    expect(second).toMatchObject({ ok: true, value: { status: "succeeded" } });
    // Both settled on the channel (what the next tests compare is its final state).
    await until("settled", () => (views.channels?.[0]?.inbound ?? 0n) >= inboundBefore + 2_000n);
  }, 180_000);

  it("keeps channel state in one place: a merge keeps this device's channels, another wallet is refused", async () => {
    const { json } = ok<{ json: string }>(await host.run({ _tag: "ExportState", password: "export-pw" }));
    const channels = host.views().channels;
    ok(await host.run({ _tag: "ImportState", text: json, password: "export-pw" }));
    await host.whenLightning();
    expect(host.views().channels).toEqual(channels);

    const other = await WalletHost.open({
      db: new WalletDb("other-wallet"),
      config,
      cipher: testCipher,
      onViews: () => {},
    });
    ok(await other.run({ _tag: "CreateWallet" }));
    const foreign = ok<{ json: string }>(await other.run({ _tag: "ExportState", password: "other-pw" }));
    const refused = await host.run({ _tag: "ImportState", text: foreign.json, password: "other-pw" });
    expect(refused).toMatchObject({
      ok: false,
      error: { key: "settings.emergency_kit.import_export.error_channels" },
    });
    expect(host.views().channels).toEqual(channels);
    await other.stop();
    await host.whenLightning();
  }, 180_000);

  it("closes the channel and the funds come back on-chain", async () => {
    const channel = host.views().channels[0]!;
    await until(
      "channel usable again",
      () => views.live?.usable_channels.includes(channel.channel_id) ?? false,
    );
    ok(await host.run({ _tag: "CloseChannel", channelId: channel.channel_id }));
    await until("closed", () => views.activity?.items.some((i) => i.kind === "ChannelClose") ?? false);
    expect(views.balance?.lightning).toBe(0n);
    expect(views.balance?.force_close).toBeGreaterThan(180_000n);
    // Our output of the closing transaction is swept to the on-chain wallet once it is safe from reorgs.
    await mine(6);
    await until("swept", () => views.balance?.force_close === 0n, 20_000);
    await mine(1);
    await until("back on-chain", () => (views.balance?.confirmed ?? 0n) > 270_000n, 20_000);
  }, 180_000);
});
