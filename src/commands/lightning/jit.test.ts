import { createServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { DEFAULT_LSP_FEES, lspFeeMsat } from "../../../harness/lsp";
import type { Harness } from "../../../harness/world";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import { ok, worldWalletForTests, worldLspConfig } from "../host/host.testing";
import type { AllViews } from "../../projections/live";

let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
worldWalletForTests(new WalletDb("jit-host"), worldLspConfig, (w) => {
  ({ h, host, views } = w);
});

const post = async (path: string, body: unknown) =>
  fetch(`${h.esploraUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const paid = async (paymentHash: string) =>
  ok<{ paid: string | null; amountSats: bigint }>(
    await host.run({ _tag: "CheckReceived", address: null, paymentHash }),
  );

describe("receiving over a just-in-time channel from the LSP", () => {
  it("a new wallet with no channel receives 50,000 sats; the LSP keeps its setup fee", async () => {
    const fee = max(
      DEFAULT_LSP_FEES.minFeeMsat,
      (50_000_000n * DEFAULT_LSP_FEES.proportionalMillionths) / 1_000_000n,
    );
    expect(fee).toBe(2_000_000n);
    expect(lspFeeMsat(DEFAULT_LSP_FEES, 50_000_000n)).toBe(fee);
    // 0.4% of 1,000,000 sats is 4,000 sats, above the minimum.
    expect(lspFeeMsat(DEFAULT_LSP_FEES, 1_000_000_000n)).toBe(4_000_000n);

    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 50_000n }))).toEqual({
      feeSats: 2_000n,
      needsChannel: true,
    });
    const shown = ok<{ invoice: string; paymentHash: string; uri: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 50_000n, labels: ["first"], flavor: "lightning" }),
    );
    const wrapped = decodeBolt11(shown.invoice)!;
    expect(wrapped.payeePubkey).toBe(h.lightning.pubkey);
    expect(wrapped.amountMsat).toBe(50_000_000n);
    expect(wrapped.paymentHash).toBe(shown.paymentHash);
    expect((await paid(shown.paymentHash)).paid).toBeNull();

    const started = Date.now();
    const r = await post("/ln/pay", { bolt11: shown.invoice });
    expect(await r.json()).toMatchObject({ status: "succeeded" });
    await until("paid", async () => (await paid(shown.paymentHash)).paid === "lightning_paid");
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await paid(shown.paymentHash)).toEqual({ paid: "lightning_paid", amountSats: 48_000n });
    await until("balance", () => views.balance?.lightning === 48_000n);
    expect(h.lsp.opened).toHaveLength(1);
    expect(h.lsp.opened[0]!.sats).toBe(100_000n);

    // One row: what arrived, the LSP's fee in its details; the channel opened for it is no row of its own.
    const items = views.activity?.items ?? [];
    expect(items.filter((i) => i.kind === "ChannelOpen")).toEqual([]);
    const row = items.find((i) => i.kind === "Lightning")!;
    expect(row).toMatchObject({ inbound: true, amount_sats: 48_000n });
    expect(ok(await host.run({ _tag: "GetLightningPayment", id: row.id }))).toMatchObject({
      fee_sats: 2_000n,
    });
    expect(
      ok(await host.run({ _tag: "GetChannelEvent", id: views.channels?.[0]?.channel_id ?? "" })),
    ).toMatchObject({
      kind: "ChannelOpen",
      fee_sats: 2_000n,
      capacity_sats: 100_000n,
      balance_sats: 48_000n,
    });
  }, 180_000);

  it("a second receive uses the channel it has, with no second fee", async () => {
    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 20_000n }))).toEqual({
      feeSats: 0n,
      needsChannel: false,
    });
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 20_000n, labels: [], flavor: "unified" }),
    );
    const own = decodeBolt11(shown.invoice)!;
    expect(own.amountMsat).toBe(20_000_000n);
    expect(own.payeePubkey).not.toBe(h.lightning.pubkey);
    expect(await (await post("/ln/pay", { bolt11: shown.invoice })).json()).toMatchObject({
      status: "succeeded",
    });
    await until("paid", async () => (await paid(shown.paymentHash)).paid === "lightning_paid");
    await until("balance", () => views.balance?.lightning === 68_000n);
    expect(h.lsp.opened).toHaveLength(1);
    expect(views.activity?.items.filter((i) => i.kind === "ChannelOpen")).toHaveLength(0);
  }, 180_000);

  it("refuses amounts outside the LSP's range and expired fee quotes", async () => {
    const node = `02${"11".repeat(32)}`;
    const low = await post("/api/v1/fee", { amount_msat: 9_999_000, pubkey: node });
    expect(low.status).toBe(400);
    expect(await low.text()).toMatch(/below the minimum of 10000 sats/);
    const high = await post("/api/v1/fee", { amount_msat: 1_000_001_000, pubkey: node });
    expect(high.status).toBe(400);
    expect(await high.text()).toMatch(/above the maximum of 1000000 sats/);
    const tooMuch = await host.run({ _tag: "EstimateReceiveFee", amountSats: 2_000_000n });
    // The LSP's limit in the catalogue's words, with its amount to format and what to do.
    expect(tooMuch).toMatchObject({
      ok: false,
      error: { _tag: "InvalidInput", key: "receive.error_lsp_above_max", values: { amount: "1000000" } },
    });

    // Beyond what the LSP serves: a lightning-only request says why; a unified one keeps the wallet's own.
    const refused = await host.run({
      _tag: "CreateReceive",
      amountSats: 2_000_000n,
      labels: [],
      flavor: "lightning",
    });
    expect(refused).toMatchObject({ ok: false, error: { key: "receive.error_lsp_above_max" } });
    const fallback = ok<{ invoice: string; address: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 2_000_000n, labels: [], flavor: "unified" }),
    );
    expect(fallback.address).toMatch(/^bcrt1/);
    expect(decodeBolt11(fallback.invoice)?.payeePubkey).not.toBe(h.lightning.pubkey);

    // A unified request that needs a channel carries the LSP's invoice as its `lightning=`.
    const unified = ok<{ uri: string; invoice: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 200_000n, labels: [], flavor: "unified" }),
    );
    expect(decodeBolt11(unified.invoice)).toMatchObject({
      payeePubkey: h.lightning.pubkey,
      amountMsat: 200_000_000n,
    });
    expect(unified.uri.toLowerCase()).toContain(`lightning=${unified.invoice.toLowerCase()}`);

    const validity = h.lsp.params.validitySecs;
    h.lsp.params.validitySecs = 0;
    try {
      const q = (await (await post("/api/v1/fee", { amount_msat: 200_000_000, pubkey: node })).json()) as {
        id: string;
      };
      const expired = await post("/api/v1/proposal", { bolt11: "lnbcrt1", fee_id: q.id });
      expect(expired.status).toBe(400);
      expect(await expired.text()).toMatch(/expired/);
      const r = await host.run({
        _tag: "CreateReceive",
        amountSats: 200_000n,
        labels: [],
        flavor: "lightning",
      });
      expect(r).toMatchObject({ ok: false, error: { _tag: "InvalidInput" } });
      expect(r.ok ? "" : r.error.message).toMatch(/expired/);
    } finally {
      h.lsp.params.validitySecs = validity;
    }
    expect(await post("/api/v1/proposal", { bolt11: "x", fee_id: "nope" }).then((x) => x.status)).toBe(400);
  }, 180_000);

  it("takes zero-confirmation channels from the LSP only: another node's channel waits for its confirmations", async () => {
    const wallet = h.lsp.opened[0]!.pubkey;
    const other = await h.startNode();
    ok(await host.run({ _tag: "ConnectPeer", address: other.address }));
    other.node.openChannel(wallet, 150_000n, 0n);
    const pending = await other.waitFor((e) => e.type === "channel_pending");
    if (pending.type !== "channel_pending") throw new Error("no funding");
    await h.waitForTx(pending.fundingTxid);
    await until("the wallet sees the channel", () =>
      (views.channels ?? []).some((c) => c.peer === other.pubkey),
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(other.node.channels().find((c) => c.peer === wallet)?.isUsable).toBe(false);
    expect(views.channels?.find((c) => c.peer === other.pubkey)?.is_usable).toBe(false);
    await h.mine(6);
    ok(await host.run({ _tag: "SyncOnchain" }));
    await until("ready once confirmed", () =>
      other.node.channels().some((c) => c.peer === wallet && c.isUsable),
    );
  }, 180_000);

  it("a silent LSP delays only the commands that asked it, which end at its deadline; a flooding one is refused", async () => {
    const scope = "jit-silent";
    const lsp = `${h.esploraUrl}/hostile/${scope}/lsp`;
    // The hostile scope answers honestly until told otherwise: the wallet takes it as its LSP.
    ok(await host.run({ _tag: "ChangeLsp", lsp, connectionString: "", token: "" }));
    h.hostility.set("lsp", scope, "never-answers");
    try {
      // More than every channel can take in: this receive needs the LSP.
      const receiving = host.run({
        _tag: "CreateReceive",
        amountSats: 400_000n,
        labels: [],
        flavor: "lightning",
      });
      const changing = host.run({ _tag: "ChangeLsp", lsp: `${lsp}/`, connectionString: "", token: "" });
      const invoice = host.run({ _tag: "CreateInvoice", amountSats: 2_000n, labels: [] });
      expect(
        await Promise.race([
          invoice.then(() => "invoice"),
          receiving.then(() => "receive"),
          changing.then(() => "change"),
        ]),
      ).toBe("invoice");
      ok(await invoice);
      // The waits end on their own when the LSP's time is up, with the catalogue's words.
      expect(await receiving).toMatchObject({ ok: false, error: { key: "receive.error_lsp_failed" } });
      expect(await changing).toMatchObject({
        ok: false,
        error: { key: "settings.servers.error_lsp_change_failed" },
      });

      h.hostility.set("lsp", scope, "huge-answer");
      expect(
        await host.run({ _tag: "CreateReceive", amountSats: 400_000n, labels: [], flavor: "lightning" }),
      ).toMatchObject({ ok: false, error: { key: "receive.error_lsp_failed" } });
      expect(await host.run({ _tag: "EstimateReceiveFee", amountSats: 400_000n })).toMatchObject({
        ok: false,
        error: { key: "receive.error_lsp_failed" },
      });
    } finally {
      h.hostility.set("lsp", scope, null);
      ok(await host.run({ _tag: "ChangeLsp", lsp: h.esploraUrl, connectionString: "", token: "" }));
    }
  }, 180_000);

  it("a peer that accepts the connection and never speaks delays only the command that dialled it", async () => {
    const held: Socket[] = [];
    const silent = createServer((c) => held.push(c));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (silent.address() as AddressInfo).port;
      const connecting = host.run({ _tag: "ConnectPeer", address: `02${"42".repeat(32)}@127.0.0.1:${port}` });
      const invoice = host.run({ _tag: "CreateInvoice", amountSats: 2_000n, labels: [] });
      expect(await Promise.race([invoice.then(() => "invoice"), connecting.then(() => "connect")])).toBe(
        "invoice",
      );
      ok(await invoice);
      // The handshake's wait ends on its own, with the catalogue's words.
      expect(await connecting).toMatchObject({ ok: false, error: { key: "swap.peer_not_found" } });
    } finally {
      for (const c of held) c.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  }, 180_000);
});

const max = (a: bigint, b: bigint) => (a > b ? a : b);
