import { describe, expect, it } from "vitest";
import { DEFAULT_LSPS_TOKEN } from "../../../harness/lsps2";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import { ok, worldWalletForTests, worldLsps2Config } from "../host/host.testing";
import type { AllViews } from "../../projections/live";

let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
worldWalletForTests(new WalletDb("lsps2-host"), worldLsps2Config, (w) => {
  ({ h, host, views } = w);
});

const check = async (paymentHash: string) =>
  ok<{ paid: string | null; amountSats: bigint; refused?: { keptSats: bigint; promisedSats: bigint } }>(
    await host.run({ _tag: "CheckReceived", address: null, paymentHash }),
  );

const pay = (bolt11: string): Promise<{ status: string }> => postJson(h.esploraUrl, "/ln/pay", { bolt11 });

describe("receiving over a just-in-time channel from an LSPS2 LSP", () => {
  it("shows the setup fee, then the wallet's own invoice through the LSP; what arrives is the amount less the fee", async () => {
    expect(ok(await host.run({ _tag: "GetConfiguredLsp" }))).toEqual({
      lsp: "",
      connectionString: h.lsps2.connectionString,
      token: DEFAULT_LSPS_TOKEN,
    });
    // What the LSP's menu states: channels for payments from 10,000 sats up to 5,000,000.
    expect(ok(await host.run({ _tag: "GetReceiveLimits" }))).toEqual({
      channelMinSats: 10_000n,
      maxSats: 5_000_000n,
    });
    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 50_000n }))).toEqual({
      feeSats: 2_000n,
      needsChannel: true,
    });
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 50_000n, labels: ["first"], flavor: "lightning" }),
    );
    const invoice = decodeBolt11(shown.invoice)!;
    expect(invoice.payeePubkey).toBe(views.live?.node_id);
    expect(invoice.amountMsat).toBe(50_000_000n);
    expect(await pay(shown.invoice)).toMatchObject({ status: "succeeded" });
    await until("paid", async () => (await check(shown.paymentHash)).paid === "lightning_paid");
    expect(await check(shown.paymentHash)).toEqual({ paid: "lightning_paid", amountSats: 48_000n });
    await until("balance", () => views.balance?.lightning === 48_000n);
    expect((views.activity?.items ?? []).filter((i) => i.kind === "ChannelOpen")).toEqual([]);
    const open = views.channels?.[0]?.channel_id ?? "";
    expect(ok(await host.run({ _tag: "GetChannelEvent", id: open }))).toMatchObject({
      fee_sats: 2_000n,
      capacity_sats: 100_000n,
    });
  }, 240_000);

  it("a second receive uses the channel with no second fee", async () => {
    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 20_000n }))).toEqual({
      feeSats: 0n,
      needsChannel: false,
    });
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 20_000n, labels: [], flavor: "lightning" }),
    );
    expect(await pay(shown.invoice)).toMatchObject({ status: "succeeded" });
    await until("paid", async () => (await check(shown.paymentHash)).paid === "lightning_paid");
    expect((await check(shown.paymentHash)).amountSats).toBe(20_000n);
    expect(h.lsps2.opened).toHaveLength(1);
  }, 180_000);

  it("says which amounts the LSP serves", async () => {
    const low = await host.run({
      _tag: "CreateReceive",
      amountSats: 9_000n,
      labels: [],
      flavor: "lightning",
    });
    // 9,000 sats fit in the channel: no LSP is asked.
    expect(low.ok).toBe(true);
    const high = await host.run({ _tag: "EstimateReceiveFee", amountSats: 6_000_000n });
    expect(high).toMatchObject({
      ok: false,
      error: { _tag: "InvalidInput", key: "receive.error_lsp_above_max", values: { amount: "5000000" } },
    });
  }, 180_000);

  it("says so when the LSP would shorten the two weeks the wallet asks of it", async () => {
    const menu = h.lsps2.menu;
    h.lsps2.menu = menu.map((m) => ({ ...m, maxClientToSelfDelay: 144 }));
    try {
      const refused = await host.run({ _tag: "EstimateReceiveFee", amountSats: 2_000_000n });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          _tag: "InvalidInput",
          key: "receive.error_lsp_delay_refused",
          values: { max: "144", delay: "2016" },
        },
      });
    } finally {
      h.lsps2.menu = menu;
    }
  }, 180_000);

  it("refuses a payment the LSP kept too much of, and the receive screen hears why", async () => {
    h.lsps2.greedyMsat = 1_000n;
    try {
      const shown = ok<{ invoice: string; paymentHash: string }>(
        await host.run({ _tag: "CreateReceive", amountSats: 600_000n, labels: [], flavor: "lightning" }),
      );
      expect(await pay(shown.invoice)).toMatchObject({ status: "failed" });
      await until("refused", async () => (await check(shown.paymentHash)).refused !== undefined);
      expect(await check(shown.paymentHash)).toEqual({
        paid: null,
        amountSats: 0n,
        refused: { keptSats: 2_401n, promisedSats: 2_400n },
      });
      expect(ok(await host.run({ _tag: "GetLightningPayment", id: shown.paymentHash }))).toMatchObject({
        status: "failed",
        reason: expect.stringMatching(/kept 2401 sats .* 2400 sats it promised/),
      });
      // Nothing arrived: the channel the LSP opened for it holds nothing of the wallet's, the first one
      // what it held, and activity shows no payment.
      await until("the new channel", () => (views.channels ?? []).length === 2);
      const channels = views.channels ?? [];
      expect(channels.find((c) => c.size === 1_200_000n)).toMatchObject({ balance: 0n });
      const first = channels.find((c) => c.size === 100_000n)!;
      expect(first.balance + first.reserve).toBe(68_000n);
      expect(views.activity?.items.some((i) => i.id === shown.paymentHash)).toBe(false);
    } finally {
      h.lsps2.greedyMsat = 0n;
    }
  }, 240_000);

  it("changes the lightning service only to one that answers", async () => {
    const bad = await host.run({
      _tag: "ChangeLsp",
      lsp: "",
      connectionString: h.lsps2.connectionString,
      token: "not-the-token",
    });
    expect(bad).toMatchObject({
      ok: false,
      error: { _tag: "ServerUnavailable", key: "settings.servers.error_lsp_change_failed" },
    });
    const both = await host.run({
      _tag: "ChangeLsp",
      lsp: h.esploraUrl,
      connectionString: h.lsps2.connectionString,
      token: DEFAULT_LSPS_TOKEN,
    });
    expect(both).toMatchObject({ ok: false, error: { key: "settings.servers.lsps_valid_error" } });
    expect(ok(await host.run({ _tag: "GetConfiguredLsp" }))).toMatchObject({ token: DEFAULT_LSPS_TOKEN });

    ok(await host.run({ _tag: "ChangeLsp", lsp: h.esploraUrl, connectionString: "", token: "" }));
    expect(ok(await host.run({ _tag: "GetConfiguredLsp" }))).toEqual({
      lsp: h.esploraUrl,
      connectionString: "",
      token: "",
    });
    // The HTTP LSP's limits now.
    const http = await host.run({ _tag: "EstimateReceiveFee", amountSats: 1_500_000n });
    expect(http.ok ? "" : http.error.message).toMatch(/opens channels for payments of at most 1000000 sats/);
    ok(
      await host.run({
        _tag: "ChangeLsp",
        lsp: "",
        connectionString: h.lsps2.connectionString,
        token: DEFAULT_LSPS_TOKEN,
      }),
    );
    // Only the LSPS2 menu's second entry serves this amount: 0.2% of 1,500,000 sats.
    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 1_500_000n }))).toEqual({
      feeSats: 3_000n,
      needsChannel: true,
    });
  }, 180_000);
});
