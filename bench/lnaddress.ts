import "fake-indexeddb/auto";
import WebSocket from "ws";
import type { Harness } from "../harness/world";
import { ok } from "../src/commands/host/host.testing";
import { joinPlus, walletWithChannel } from "../src/commands/nwc/nwc.testing";
import { WalletDb } from "../src/events/db";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Lightning-address payment, online path: a payer's LUD-06 callback request until it holds the invoice the
 * member's wallet made over its wallet-connect connection (the world's lightning-address service, the
 * wallet's engines in Node, the world's relay on loopback). 20 requests.
 */
export const benchLightningAddress = async (world: Harness) => {
  const w = await walletWithChannel(world, new WalletDb("bench-lnaddress"));
  try {
    const host = w.host();
    const service = world.esploraUrl;
    await joinPlus(world, host, world.plus.plans[0]!.id);
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
    await w.close();
  }
};
