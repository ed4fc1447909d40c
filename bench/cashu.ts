/**
 * The world's Cashu mint over loopback, driven by cashu-ts's Wallet in Node: the mint round trip (quote
 * invoice paid over lightning → proofs in hand), melts (the mint paying another node's invoice), and a
 * restore of 1,000 proofs from a seed (NUT-09/13). Figures only: nothing here passes or fails on time.
 */
import { type Proof, sumProofs, Wallet } from "@cashu/cashu-ts";
import { mnemonicToSeedSync } from "@scure/bip39";
import { until } from "../harness/until";
import type { Harness } from "../harness/world";
import { decodeBolt11 } from "../src/engine/parse/bolt11";

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const line = (what: string, times: number[]) => {
  const t = [...times].sort((a, b) => a - b);
  return `${what}: p50 ${pct(t, 50).toFixed(0)} ms, p95 ${pct(t, 95).toFixed(0)} ms`;
};

export const benchCashuMint = async (world: Harness) => {
  const payer = await world.payer();
  const wallet = new Wallet(world.cashu.mintUrl, { unit: "sat" });
  await wallet.loadMint();

  /** Quote, pay it from the payer node, mint: answers the proofs and the time from paying to proofs. */
  const mint = async (
    amount: number,
  ): Promise<{ proofs: Proof[]; paidToProofs: number; mintCall: number }> => {
    const quote = await wallet.createMintQuoteBolt11(amount);
    const hash = decodeBolt11(quote.request)!.paymentHash;
    const start = performance.now();
    const paid = await payer.node.payInvoice(quote.request, 1_000_000n);
    if (paid.status !== "succeeded") throw new Error(`mint quote payment ${paid.status}`);
    await world.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
    const before = performance.now();
    const proofs = await wallet.mintProofsBolt11(amount, quote.quote);
    const end = performance.now();
    return { proofs, paidToProofs: end - start, mintCall: end - before };
  };

  // The world's node pays melts over its channel from the payer: fund it beyond the channel reserve first.
  let proofs = (await mint(200_000)).proofs;
  await until(
    "the world's node to be able to pay the payer",
    () => world.lightning.node.channels().some((c) => c.peer === payer.pubkey && c.outboundSats >= 100_000n),
    60_000,
  );

  const paidToProofs: number[] = [];
  const mintCalls: number[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await mint(1_000);
    paidToProofs.push(r.paidToProofs);
    mintCalls.push(r.mintCall);
    proofs.push(...r.proofs);
  }
  console.log(
    line("Cashu mint round trip, 1,000 sats (invoice paid over lightning → proofs), 20 runs", paidToProofs),
  );
  console.log(
    line("  of which POST /v1/mint/bolt11 (outputs signed with DLEQ, checked by cashu-ts)", mintCalls),
  );

  const melts: number[] = [];
  for (let i = 0; i < 20; i++) {
    const invoice = payer.node.createInvoice(100_000n, "bench melt");
    const quote = await wallet.createMeltQuoteBolt11(invoice.bolt11);
    const { keep, send } = await wallet.send(quote.amount.add(quote.fee_reserve), proofs, {
      includeFees: true,
    });
    const start = performance.now();
    const melted = await wallet.meltProofsBolt11(quote, send);
    melts.push(performance.now() - start);
    if (melted.quote.state !== "PAID") throw new Error(`melt ${melted.quote.state}`);
    proofs = [...keep, ...melted.change];
  }
  console.log(
    line("Cashu melt, 100 sats to another node (POST /v1/melt/bolt11 → PAID with change), 20 runs", melts),
  );

  // Restore: 1,000 one-sat proofs of a seeded wallet, found again by a fresh wallet from the same seed.
  const seed = mnemonicToSeedSync(
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
  );
  const seeded = new Wallet(world.cashu.mintUrl, { unit: "sat", bip39seed: seed });
  await seeded.loadMint();
  const quote = await seeded.createMintQuoteBolt11(1_000);
  await payer.node.payInvoice(quote.request, 1_000_000n);
  const hash = decodeBolt11(quote.request)!.paymentHash;
  await world.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
  await seeded.mintProofsBolt11(1_000, quote.quote, undefined, {
    type: "deterministic",
    counter: 0,
    denominations: Array.from({ length: 1_000 }, () => 1),
  });
  const fresh = new Wallet(world.cashu.mintUrl, { unit: "sat", bip39seed: seed });
  await fresh.loadMint();
  const start = performance.now();
  const restored = await fresh.batchRestore();
  const ms = performance.now() - start;
  console.log(
    `Cashu restore of ${restored.proofs.length} proofs (${sumProofs(restored.proofs).toNumber()} sats) from a seed, cashu-ts batchRestore against the world mint: ${ms.toFixed(0)} ms`,
  );
};
