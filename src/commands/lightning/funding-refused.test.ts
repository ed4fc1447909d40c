/**
 * A channel open whose funding transaction the server refuses: the coins never left the wallet, so they are
 * counted once, on-chain, and stay spendable; the channel that never opened holds nothing of the owner's.
 */
import { describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { deriveViews, foldEvents } from "../../projections";
import type { AllViews } from "../../projections/live";
import type { WalletHost } from "../host/host";
import { fundFromWorld, ok, worldLspConfig, worldWalletForTests } from "../host/host.testing";

let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
const db = new WalletDb("funding-refused");
const SCOPE = "funding-refused";

// The wallet's chain server refuses transactions only while this test says so; reads stay honest.
worldWalletForTests(
  db,
  (world) => ({ ...worldLspConfig(world), esplora: world.hostileEsploraUrl(SCOPE) }),
  (w) => {
    ({ h, host, views } = w);
  },
);

describe("a channel whose funding broadcast the server refuses", () => {
  it("keeps the coins on-chain, counted once and spendable", async () => {
    await fundFromWorld(h, host, 300_000n);
    expect(views.balance?.total).toBe(300_000n);

    h.hostility.set("esplora", SCOPE, "broadcast-refused");
    try {
      ok(await host.run({ _tag: "OpenChannel", amountSats: 200_000n }));
      // The funding the node tried to send is found gone from the chain.
      await until("funding dropped", async () =>
        (await readEvents(db)).some((e) => e.type === "onchain.tx_dropped"),
      );
      ok(await host.run({ _tag: "SyncOnchain" }));
    } finally {
      h.hostility.set("esplora", SCOPE, null);
    }
    const { live: _live, ...after } = host.views();
    expect(after.balance).toMatchObject({
      confirmed: 300_000n,
      lightning: 0n,
      force_close: 0n,
      total: 300_000n,
    });
    // The node may still list the channel as opening; it holds nothing of the owner's, and the open's row
    // says it never happened.
    expect(after.channel_totals).toEqual({ balance: 0n, reserve: 0n, inbound: 0n, pending: 0n });
    expect(after.activity.items.find((i) => i.kind === "ChannelOpen")).toMatchObject({ dropped: true });
    // The log folds to the same views.
    expect(deriveViews(foldEvents(await readEvents(db)))).toEqual(after);

    // The coins are spendable: a payment from them goes out and the balance follows.
    const sent = ok<{ txid: string; feeSats: bigint }>(
      await host.run({ _tag: "SendToAddress", address: h.faucetAddress, amountSats: 250_000n, labels: [] }),
    );
    await h.waitForTx(sent.txid);
    await h.mine(1);
    ok(await host.run({ _tag: "SyncOnchain" }));
    expect(host.views().balance).toMatchObject({
      confirmed: 50_000n - sent.feeSats,
      lightning: 0n,
      total: 50_000n - sent.feeSats,
    });
  }, 180_000);
});
