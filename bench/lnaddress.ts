import "fake-indexeddb/auto";
import WebSocket from "ws";
import { until } from "../harness/until";
import type { Harness } from "../harness/world";
import { ok, openWorldHost } from "../src/commands/host.testing";
import { WalletDb } from "../src/events/db";
import type { AllViews } from "../src/projections/live";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Lightning-address payment, online path: a payer's LUD-06 callback request until it holds the invoice the
 * member's wallet made over its wallet-connect connection (the world's lightning-address service, the
 * wallet's engines in Node, the world's relay on loopback). 20 requests.
 */
export const benchLightningAddress = async (world: Harness) => {
  let views: Partial<AllViews> = {};
  const host = await openWorldHost(
    new WalletDb("bench-lnaddress"),
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
    const service = world.esploraUrl;
    const plan = world.plus.plans[0]!;
    const amountSats = BigInt(plan.amount_sat);
    ok(await host.run({ _tag: "PreparePlus", host: service, planId: plan.id }));
    await until(
      "the wallet-connect service",
      async () => (await host.run({ _tag: "GetNwcUri", index: 0 })).ok,
    );
    const { uri } = ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index: 0 }));
    const { bolt11 } = ok<{ bolt11: string }>(
      await host.run({ _tag: "SubscribePlus", host: service, planId: plan.id, nwc: uri }),
    );
    ok(await host.run({ _tag: "PayInvoice", bolt11, amountSats }));
    ok(await host.run({ _tag: "ReserveLnName", host: service, name: "bench" }));
    const { callback } = (await (await fetch(`${service}/.well-known/lnurlp/bench`)).json()) as {
      callback: string;
    };
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const answer = (await (await fetch(`${callback}?amount=${1000 * (i + 1)}`)).json()) as { pr?: string };
      if (!answer.pr) throw new Error(`No invoice: ${JSON.stringify(answer)}`);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `lightning-address payment, payer's request → wallet's invoice over wallet-connect (loopback, ${times.length} requests): p50 ${Math.round(pct(times, 50))} ms, p95 ${Math.round(pct(times, 95))} ms`,
    );
  } finally {
    await host.stop();
  }
};
