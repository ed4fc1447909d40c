import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LSPS_TOKEN } from "../../../harness/lsps2";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import type { WalletConfig } from "../../config";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import { stopAfterAll } from "../../../harness/stop-after-all";
import type { WalletHost } from "../host/host";
import { ok, openWorldHost, startWorldWallet, worldLsps2Config } from "../host/host.testing";

let h: Harness;
let config: WalletConfig;
const db = new WalletDb("lsp-delay-host");
let host: WalletHost;
let views: Partial<AllViews> = {};
/** How many times the node started (the views said "starting"). */
let starts = 0;
const onViews = (v: Partial<AllViews>) => {
  if (v.live?.lightning === "starting" && views.live?.lightning !== "starting") starts++;
  views = { ...views, ...v };
};

/** The LSP's offers allow a client at most `blocks` (null: the two weeks again). */
const lspAllows = (blocks: number | null) => {
  h.lsps2.menu = h.lsps2.menu.map(({ maxClientToSelfDelay: _, ...m }) =>
    blocks === null ? m : { ...m, maxClientToSelfDelay: blocks },
  );
};

const pay = (bolt11: string): Promise<{ status: string }> => postJson(h.esploraUrl, "/ln/pay", { bolt11 });

beforeAll(async () => {
  ({ h, config, host } = await startWorldWallet(db, worldLsps2Config, onViews));
  views = host.views();
}, 180_000);

afterAll(() => lspAllows(null));
stopAfterAll(() => [host, h]);

describe("an LSP that allows a shorter safety delay than the wallet's two weeks", () => {
  const lsp = () => h.lsps2.connectionString.split("@")[0]!;

  it("is refused in words, used once the owner accepts its delay, and the channel it opens has that delay", async () => {
    lspAllows(1008);
    const refused = await host.run({ _tag: "EstimateReceiveFee", amountSats: 50_000n });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        _tag: "InvalidInput",
        key: "receive.error_lsp_delay_refused",
        values: { max: "1008", days: "7", delay: "2016", delay_days: "14", lsp: lsp() },
      },
    });
    expect(refused.ok ? "" : refused.error.message).toMatch(
      /may stay closed for only about 7 days without a watchtower/,
    );
    // Nothing is decided for the owner: the receive itself is refused the same way.
    const create = await host.run({
      _tag: "CreateReceive",
      amountSats: 50_000n,
      labels: [],
      flavor: "lightning",
    });
    expect(create).toMatchObject({ ok: false, error: { key: "receive.error_lsp_delay_refused" } });

    ok(await host.run({ _tag: "AcceptLspDelay", lsp: lsp(), blocks: 1008 }));
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 50_000n, labels: [], flavor: "lightning" }),
    );
    expect(views.live?.lightning).toBe("ready");
    expect(await pay(shown.invoice)).toMatchObject({ status: "succeeded" });
    await until("paid", async () => {
      const r = ok<{ paid: string | null }>(
        await host.run({ _tag: "CheckReceived", address: null, paymentHash: shown.paymentHash }),
      );
      return r.paid === "lightning_paid";
    });
    // The LSP must wait 1,008 blocks after closing alone: what the wallet asked, as both sides see it.
    const wallet = views.live?.node_id;
    const atLsp = h.lightning.node.channels().filter((c) => c.peer === wallet);
    expect(atLsp.map((c) => c.spendDelay)).toEqual([1008]);
    await until("the channel in the views", () => (views.channels ?? []).length === 1);
    expect(views.channels?.[0]?.to_self_delay).toBe(1008);
  }, 240_000);

  it("asks again for a shorter offer, and refuses one below a day outright", async () => {
    lspAllows(504);
    const shorter = await host.run({ _tag: "EstimateReceiveFee", amountSats: 2_000_000n });
    expect(shorter).toMatchObject({
      ok: false,
      error: { key: "receive.error_lsp_delay_refused", values: { max: "504", days: "3", delay: "1008" } },
    });
    lspAllows(100);
    expect(await host.run({ _tag: "EstimateReceiveFee", amountSats: 2_000_000n })).toMatchObject({
      ok: false,
      error: { key: "receive.error_lsp_delay_too_short", values: { max: "100", min: "144" } },
    });
    expect(await host.run({ _tag: "AcceptLspDelay", lsp: lsp(), blocks: 100 })).toMatchObject({
      ok: false,
      error: { key: "receive.error_lsp_delay_too_short" },
    });
    // Another LSP than the one in use is not accepted for.
    expect(await host.run({ _tag: "AcceptLspDelay", lsp: `02${"c".repeat(64)}`, blocks: 504 })).toMatchObject(
      { ok: false, error: { key: "receive.error_lsp_delay_other_lsp" } },
    );
  }, 120_000);

  it("asks two weeks again of another LSP: the node starts again when the lightning service changes", async () => {
    const before = starts;
    ok(await host.run({ _tag: "ChangeLsp", lsp: h.esploraUrl, connectionString: "", token: "" }));
    await until("the node started again", () => starts > before && views.live?.lightning === "ready");
    const wallet = views.live?.node_id;
    const known = new Set(h.lightning.node.channels().map((c) => c.channelId));
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 200_000n, labels: [], flavor: "lightning" }),
    );
    expect(await pay(shown.invoice)).toMatchObject({ status: "succeeded" });
    const fresh = () =>
      h.lightning.node.channels().filter((c) => c.peer === wallet && !known.has(c.channelId));
    await until("the HTTP LSP's channel", () => fresh().length === 1);
    expect(fresh()[0]?.spendDelay).toBe(2016);
    ok(
      await host.run({
        _tag: "ChangeLsp",
        lsp: "",
        connectionString: h.lsps2.connectionString,
        token: DEFAULT_LSPS_TOKEN,
      }),
    );
  }, 180_000);

  it("keeps the consent after the wallet opens again", async () => {
    lspAllows(1008);
    await host.stop();
    views = {};
    host = await openWorldHost(db, config, onViews);
    await host.whenLightning();
    // 1,008 blocks were accepted for this LSP: its offers serve the wallet without asking.
    expect(ok(await host.run({ _tag: "EstimateReceiveFee", amountSats: 2_000_000n }))).toMatchObject({
      needsChannel: true,
    });
  }, 180_000);
});
