/**
 * A transaction a lying Esplora server showed as confirmed, then no longer knows: the activity ends it as
 * dropped, a final state dated when the wallet found it gone, never "pending" for ever, and it counts in no
 * balance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../../harness/world";
import { onchainEngine } from "../../engine/onchain/engine";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import { WalletHost } from "../host/host";
import { chainOnlyConfig, nodePlatform, ok, testCipher } from "../host/host.testing";

const SCOPE = "fake-receipt";
let h: Harness;
let host: WalletHost;
const db = new WalletDb("dropped-fake");
let views: Partial<AllViews> = {};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  const config = chainOnlyConfig(h.hostileEsploraUrl(SCOPE));
  host = await WalletHost.open({
    db,
    config,
    cipher: testCipher,
    onViews: (v) => {
      views = { ...views, ...v };
    },
    engines: { list: [onchainEngine], platform: nodePlatform },
  });
  ok(await host.run({ _tag: "CreateWallet" }));
  views = host.views();
}, 180_000);

afterAll(async () => {
  h?.hostility.set("esplora", SCOPE, null);
  await host?.stop();
  await h?.stop();
});

describe("a receipt a lying server made up", () => {
  it("ends as dropped, dated, once the server no longer shows it", async () => {
    const { address } = ok<{ address: string }>(await host.run({ _tag: "GetNewAddress", labels: [] }));
    const onchain = () => host.views().activity.items.filter((i) => i.kind === "OnChain");
    // Beside a real payment, the server invents a confirmed one of 50,000,000 sats to the same address.
    h.hostility.set("esplora", SCOPE, "fake-confirmed");
    const real = await h.faucet(address, 10_000n);
    ok(await host.run({ _tag: "SyncOnchain" }));
    const fake = onchain().find((i) => i.id !== real)!;
    expect(fake).toMatchObject({ inbound: true, dropped: false, amount_sats: 50_000_000n });
    expect(fake.last_updated).toBeGreaterThan(0);

    // The lie stops: the invented transaction is nowhere on the chain.
    h.hostility.set("esplora", SCOPE, null);
    await h.mine(1);
    ok(await host.run({ _tag: "SyncOnchain" }));
    const gone = onchain().find((i) => i.id === fake.id)!;
    expect(gone.dropped).toBe(true);
    // Final, not pending: dated when the wallet found it gone.
    expect(gone.last_updated).toBeGreaterThan(0);
    expect(gone.last_updated).toBeGreaterThanOrEqual(gone.seen_at);
    expect(onchain().find((i) => i.id === real)).toMatchObject({ dropped: false });
    expect(host.views().balance).toMatchObject({ confirmed: 10_000n, unconfirmed: 0n });
    expect(ok(await host.run({ _tag: "GetTransaction", txid: fake.id }))).toMatchObject({
      dropped: true,
      confirmed: false,
    });
    // Later syncs leave it as it is.
    await h.mine(1);
    ok(await host.run({ _tag: "SyncOnchain" }));
    expect(onchain().find((i) => i.id === fake.id)).toEqual(gone);
  }, 180_000);
});
