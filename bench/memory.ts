import type { Page, Worker } from "@playwright/test";
import type { Harness } from "../harness/world";
import { serveStatic } from "./serve";
import { fundAndOpenChannel, newWalletPage } from "./wallet-page";
import { benchContext, launchChromium } from "./chromium";

type Answer = { ok: boolean; value?: { status?: string }; error?: { message: string } };

/**
 * Sends commands to the wallet's worker the way its page does (a message on its port), from inside the
 * worker, and keeps the answers to itself: 500 payments without 500 trips through the send screen.
 */
const commandsInWorker = async (worker: Worker) =>
  worker.evaluate(() => {
    const g = self as unknown as {
      __bench?: unknown;
      postMessage: (m: unknown) => void;
      onmessage: (ev: { data: unknown }) => void;
    };
    if (g.__bench) return;
    const waiting = new Map<number, (a: unknown) => void>();
    const post = g.postMessage.bind(g);
    g.postMessage = (m: unknown) => {
      const r = m as { kind?: string; id?: number };
      const w = r.kind === "result" && r.id !== undefined ? waiting.get(r.id) : undefined;
      if (w && r.id !== undefined) {
        waiting.delete(r.id);
        w(m);
      } else post(m);
    };
    let next = 1_000_000_000;
    g.__bench = (command: Record<string, unknown>) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        g.onmessage({ data: { kind: "command", id, command } });
      });
  });

const pay = (worker: Worker, bolt11: string): Promise<Answer> =>
  worker.evaluate(
    (b) =>
      (self as unknown as { __bench: (c: unknown) => Promise<Answer> }).__bench({
        _tag: "PayInvoice",
        bolt11: b,
        amountSats: 100n,
      }),
    bolt11,
  );

/** The worker's JavaScript heap after a garbage collection, through the DevTools protocol (MB). */
export const workerHeap = async (page: Page, url: string): Promise<{ used: number; total: number }> => {
  const cdp = await page.context().newCDPSession(page);
  try {
    const session = await new Promise<string>((resolve, reject) => {
      cdp.on("Target.attachedToTarget", (e) => {
        if (e.targetInfo.type === "worker" && e.targetInfo.url.includes(url)) resolve(e.sessionId);
      });
      void cdp
        .send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false })
        .catch(reject);
      setTimeout(() => reject(new Error("the wallet's worker was not found")), 10_000);
    });
    let n = 0;
    const call = (method: string) =>
      new Promise<Record<string, number>>((resolve) => {
        const id = ++n;
        cdp.on("Target.receivedMessageFromTarget", (e) => {
          const m = JSON.parse(e.message) as { id?: number; result?: Record<string, number> };
          if (e.sessionId === session && m.id === id) resolve(m.result ?? {});
        });
        void cdp.send("Target.sendMessageToTarget", {
          sessionId: session,
          message: JSON.stringify({ id, method }),
        });
      });
    await call("HeapProfiler.collectGarbage");
    const heap = await call("Runtime.getHeapUsage");
    return { used: (heap.usedSize ?? 0) / 1_048_576, total: (heap.totalSize ?? 0) / 1_048_576 };
  } finally {
    await cdp.detach();
  }
};

/**
 * Worker memory in Chromium over 500 lightning payments: a wallet funds a channel with the world's node
 * through its screens, then pays 500 invoices of 100 sats through its worker; the worker's JavaScript heap
 * is taken after warm-up and every 100 payments.
 */
export const benchWorkerMemory = async (world: Harness) => {
  const server = await serveStatic("dist");
  const browser = await launchChromium();
  try {
    const context = await benchContext(browser, { serviceWorkers: "block" });
    const base = server.url;
    const page = await newWalletPage(context, base, world.esploraUrl);
    await fundAndOpenChannel(page, base, world, {
      fund: 600_000,
      channel: 500_000,
      syncs: 30,
      syncWaitMs: 2000,
      openWaitMs: 120_000,
    });
    const worker = page.workers().find((w) => w.url().includes("/assets/worker-"));
    if (!worker) throw new Error("the wallet's worker was not found");
    await commandsInWorker(worker);
    // The channel confirms; the wallet's node sees it with its next sync.
    await new Promise((r) => setTimeout(r, 3000));
    await world.mine(6);
    let first: Answer | null = null;
    for (let i = 0; i < 60 && !first?.ok; i++) {
      await worker.evaluate(() =>
        (self as unknown as { __bench: (c: unknown) => Promise<unknown> }).__bench({ _tag: "SyncOnchain" }),
      );
      await world.lightning.node.sync();
      first = await pay(worker, world.lightning.node.createInvoice(100_000n, "bench").bolt11);
      if (!first.ok) await new Promise((r) => setTimeout(r, 2000));
    }
    if (!first?.ok) throw new Error(`no payment went through: ${first?.error?.message}`);
    const figures: string[] = [];
    const t0 = performance.now();
    for (let i = 1; i <= 500; i++) {
      const a = await pay(worker, world.lightning.node.createInvoice(100_000n, "bench").bolt11);
      if (!a.ok) throw new Error(`payment ${i}: ${a.error?.message}`);
      if (i === 50 || i % 100 === 0) {
        const heap = await workerHeap(page, "/assets/worker-");
        figures.push(`${i}: ${heap.used.toFixed(1)} MB`);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `worker memory in Chromium over 500 lightning payments of 100 sats (JavaScript heap after a collection, DevTools protocol; LDK's wasm memory is not in it): ${figures.join(", ")}; ${(500 / seconds).toFixed(1)} payments/s through the worker`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
};
