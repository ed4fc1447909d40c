import "fake-indexeddb/auto";
import { NWCClient } from "@getalby/sdk/nwc";
import WebSocket from "ws";
import type { Harness } from "../harness/world";
import { nwcUri, walletWithChannel, createConnection } from "../src/commands/nwc/nwc.testing";
import { WalletDb } from "../src/events/db";
import { figure } from "./figures";

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
  const w = await walletWithChannel(world, new WalletDb("bench-nwc"));
  let client: NWCClient | null = null;
  try {
    const host = w.host();
    const index = await createConnection(host, "Bench", 1_000_000n);
    client = new NWCClient({ nostrWalletConnectUrl: await nwcUri(host, index) });
    await client.getInfo();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { bolt11 } = world.lightning.node.createInvoice(1_000_000n, `bench ${i}`);
      const start = performance.now();
      await client.payInvoice({ invoice: bolt11 });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    figure("wallet-connect pay_invoice round trip p50", pct(times, 50), "ms", 1_000);
    console.log(
      `wallet-connect pay_invoice round trip from an outside app (Alby SDK, loopback relay, ${times.length} payments): p50 ${Math.round(pct(times, 50))} ms, p95 ${Math.round(pct(times, 95))} ms (target p50 ≤ 1000 ms)`,
    );
  } finally {
    client?.close();
    await w.close();
  }
};
