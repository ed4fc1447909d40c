import "fake-indexeddb/auto";
import { NWCClient } from "@getalby/sdk/nwc";
import WebSocket from "ws";
import { until } from "../harness/until";
import type { Harness } from "../harness/world";
import { ok, openWorldHost } from "../src/commands/host.testing";
import { WalletDb } from "../src/events/db";
import type { AllViews } from "../src/projections/live";

// Node 20 has no global WebSocket; the outside app (the Alby SDK) uses it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * pay_invoice round trip from an outside app (the Alby SDK's NWC client) over the world's relay on
 * loopback: the request published, decided and paid by the wallet (its engines in Node, a channel to the
 * world's node), and the preimage back in the app. 20 payments, each to a fresh invoice of the world's node.
 */
export const benchNwcPay = async (world: Harness) => {
  let views: Partial<AllViews> = {};
  const host = await openWorldHost(
    new WalletDb("bench-nwc"),
    {
      network: "regtest",
      esplora: world.esploraUrl,
      priceSource: "",
      proxy: world.proxyUrl,
      lsp: world.esploraUrl,
      nwcRelay: world.nostr.relayUrl,
    },
    (v) => {
      views = { ...views, ...v };
    },
  );
  let client: NWCClient | null = null;
  try {
    ok(await host.run({ _tag: "CreateWallet" }));
    await host.whenLightning();
    const { address } = ok<{ address: string }>(await host.run({ _tag: "GetNewAddress", labels: [] }));
    await world.faucet(address, 300_000n);
    const mine = async (n: number) => {
      await world.mine(n);
      await world.lightning.node.sync();
      ok(await host.run({ _tag: "SyncOnchain" }));
    };
    await mine(1);
    ok(await host.run({ _tag: "OpenChannel", amountSats: 200_000n }));
    await until(
      "channel open",
      () => views.activity?.items.some((i) => i.kind === "ChannelOpen") ?? false,
      60_000,
    );
    await until(
      "funding out",
      async () => {
        await mine(1);
        return views.channels?.some((c) => c.is_usable) ?? false;
      },
      120_000,
      1000,
    );
    const { index } = ok<{ index: number }>(
      await host.run({
        _tag: "CreateNwcProfile",
        name: "Bench",
        budgetSats: 1_000_000n,
        period: 0,
        requireApproval: false,
      }),
    );
    const { uri } = ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index }));
    client = new NWCClient({ nostrWalletConnectUrl: uri });
    await client.getInfo();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { bolt11 } = world.lightning.node.createInvoice(1_000_000n, `bench ${i}`);
      const start = performance.now();
      await client.payInvoice({ invoice: bolt11 });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `wallet-connect pay_invoice round trip from an outside app (Alby SDK, loopback relay, ${times.length} payments): p50 ${Math.round(pct(times, 50))} ms, p95 ${Math.round(pct(times, 95))} ms (target p50 ≤ 1000 ms)`,
    );
  } finally {
    client?.close();
    await host.stop();
  }
};
