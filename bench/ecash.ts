import { Mint, Wallet } from "@cashu/cashu-ts";
import { mnemonicToSeedSync } from "@scure/bip39";
import { postJson } from "../harness/http";
import type { Harness } from "../harness/world";
import { startCashu } from "../src/engine/ecash/cashu/live";
import { newMnemonic } from "../src/engine/keys/mnemonic";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { figure } from "./figures";

const RUNS = 10;
const RESTORED_PROOFS = 1_000;
/** Restores of the same seed, each by a new wallet: the figure is their median (the machine is shared). */
const RESTORE_RUNS = 3;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const wallet = (mnemonic: string, mint: string) =>
  startCashu({
    mnemonic,
    store: new MemoryBlobStore(),
    fetch: (i, init) => fetch(i, init),
    hooks: { mints: () => [mint], record: async () => undefined },
  });

/**
 * Ecash at the world's mint over loopback: receive (the mint's invoice paid → the ecash minted here), melt
 * (the owner's confirm → the invoice paid), and a restore from the seed alone of 1,000 proofs.
 */
export const benchEcash = async (world: Harness) => {
  const mint = world.cashu.mintUrl;
  const port = await wallet(newMnemonic(), mint);
  const receive: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const q = await port.receiveQuote(mint, 1_000n);
    const t0 = performance.now();
    await postJson(world.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
    while ((await port.checkReceives(mint)).length === 0) await new Promise((r) => setTimeout(r, 5));
    receive.push(performance.now() - t0);
  }
  const melt: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { bolt11 } = (await postJson(world.esploraUrl, "/ln/invoice", { amount_sats: 100 })) as {
      bolt11: string;
    };
    const q = await port.meltQuote(mint, bolt11);
    const t0 = performance.now();
    await port.melt(mint, q.quoteId, q.amountSats, q.feeSats);
    melt.push(performance.now() - t0);
  }
  await port.stop();

  // 1,000 one-sat proofs made deterministically from a seed (by cashu-ts's own wallet), then restored.
  const words = newMnemonic();
  const outside = new Wallet(new Mint(mint), { unit: "sat", bip39seed: mnemonicToSeedSync(words) });
  await outside.loadMint();
  const batch = 250;
  for (let counter = 0; counter < RESTORED_PROOFS; counter += batch) {
    const quote = await outside.createMintQuoteBolt11(batch);
    await postJson(world.esploraUrl, "/ln/pay", { bolt11: quote.request });
    await outside.mintProofsBolt11(batch, quote.quote, undefined, {
      type: "deterministic",
      counter,
      denominations: Array(batch).fill(1),
    });
  }
  // Each restore by a wallet that has only the seed: its wall time, the process's CPU time over it (the
  // world's mint answers from this process too), and the time its requests to the mint took.
  const restores: { ms: number; cpuMs: number; requests: number; mintMs: number; sats: bigint }[] = [];
  for (let i = 0; i < RESTORE_RUNS; i++) {
    let requests = 0;
    let mintMs = 0;
    const fresh = await startCashu({
      mnemonic: words,
      store: new MemoryBlobStore(),
      fetch: async (input, init) => {
        const t = performance.now();
        try {
          return await fetch(input, init);
        } finally {
          requests++;
          mintMs += performance.now() - t;
        }
      },
      hooks: { mints: () => [mint], record: async () => undefined },
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const restored = await fresh.restore(mint);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    await fresh.stop();
    restores.push({ ms, cpuMs: (cpu.user + cpu.system) / 1000, requests, mintMs, sats: restored.amountSats });
  }
  const restoreMs = p50(restores.map((r) => r.ms));

  figure("ecash receive p50", p50(receive), "ms");
  figure("ecash melt p50", p50(melt), "ms");
  figure(`ecash restore of ${RESTORED_PROOFS.toLocaleString("en-US")} proofs`, restoreMs, "ms", 5_000);
  console.log(`ecash receive (invoice paid → ecash held), p50 of ${RUNS}: ${p50(receive).toFixed(0)} ms`);
  console.log(`ecash melt (confirm → invoice paid), p50 of ${RUNS}: ${p50(melt).toFixed(0)} ms`);
  console.log(
    `ecash restore of ${restores[0]?.sats} one-sat proofs from the seed, p50 of ${RESTORE_RUNS}: ${restoreMs.toFixed(0)} ms`,
  );
  for (const r of restores)
    console.log(
      `  ${r.ms.toFixed(0)} ms: process CPU ${r.cpuMs.toFixed(0)} ms, ${r.requests} requests to the mint ${r.mintMs.toFixed(0)} ms`,
    );
};
