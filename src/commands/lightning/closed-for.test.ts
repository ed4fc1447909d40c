/**
 * How long the wallet may stay closed: its channels make the partner wait two weeks of blocks, and a wallet
 * that comes back after more than half of that is told so as it opens.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import { ok, openNewWorldWallet, openWorldHost, worldLspConfig } from "../host/host.testing";
import type { AllViews } from "../../projections/live";
import type { WalletConfig } from "../../config";
import { stopAfterAll } from "../../../harness/stop-after-all";

let h: Harness;
let config: WalletConfig;
const db = new WalletDb("closed-for-host");
let host: WalletHost;
let views: Partial<AllViews> = {};
const onViews = (v: Partial<AllViews>) => {
  views = { ...views, ...v };
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  config = worldLspConfig(h);
  host = await openNewWorldWallet(db, config, onViews);
  views = host.views();
}, 180_000);

stopAfterAll(() => [host, h]);

describe("how long the wallet may stay closed", () => {
  it("is two weeks of blocks; a wallet closed for more than half of it hears so when it opens", async () => {
    const shown = ok<{ invoice: string; paymentHash: string }>(
      await host.run({ _tag: "CreateReceive", amountSats: 50_000n, labels: [], flavor: "lightning" }),
    );
    const r = await fetch(`${h.esploraUrl}/ln/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bolt11: shown.invoice }),
    });
    expect(await r.json()).toMatchObject({ status: "succeeded" });
    await until("balance", () => views.balance?.lightning === 48_000n, 60_000);
    // A new node was closed for no time.
    await until("told", () => views.live?.closed_for != null);
    expect(views.live?.closed_for).toEqual({ blocks: 0, limit_blocks: 2016 });
    // Whether or not the node saw the blocks that buried the channel's funding before it stopped, what it
    // saved is at most a few blocks behind the tip now.
    await host.stop();
    views = {};
    await h.mine(1_100);
    host = await openWorldHost(db, config, onViews);
    await host.whenLightning();
    await until("told how long it was closed", () => (views.live?.closed_for?.blocks ?? 0) > 0, 60_000);
    const closed = views.live!.closed_for!;
    expect(closed.limit_blocks).toBe(2016);
    expect(closed.blocks).toBeGreaterThanOrEqual(1_100);
    expect(closed.blocks).toBeLessThanOrEqual(1_110);
    expect(closed.blocks * 2).toBeGreaterThan(closed.limit_blocks);
  }, 600_000);
});
