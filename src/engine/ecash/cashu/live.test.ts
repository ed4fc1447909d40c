/**
 * The Cashu adapter against the local world's two mints (real NUT HTTP API, backed by the world's lightning
 * node), and against cashu-ts's own `Wallet` as an outside client: a token it mints is received here, a
 * token sent from here is redeemed by it. A melt interrupted between its request and its answer (the
 * process gone) is settled by the next start from the mint's answers, never paid twice.
 */
import { getEncodedToken, Mint, Wallet } from "@cashu/cashu-ts";
import { mnemonicToSeedSync } from "@scure/bip39";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, worldInvoice } from "../../../../harness/http";
import { until } from "../../../../harness/until";
import { type Harness, startHarness } from "../../../../harness/world";
import type { NewEvent } from "../../../events/make";
import { newMnemonic } from "../../keys/mnemonic";
import { MemoryBlobStore } from "../../lightning/store";
import type { EcashAdapter, RestoreProgress } from "../port";
import { startCashu } from "./live";
import { decodeState, stateKey } from "./state";
import { urlOf } from "../../http/bounded";

const LONG = 180_000;

describe("the Cashu adapter at the world's mints", () => {
  let h: Harness;
  let mintA: string;
  let mintB: string;
  const mnemonic = newMnemonic();
  const store = new MemoryBlobStore();
  const recorded: NewEvent[] = [];
  let port: EcashAdapter;
  /** The world's first mint behind a lying path: the same ledger and keysets, so the same seed's counters. */
  let dleqLiar = "";

  const start = (s = store, words = mnemonic, fetchFn: typeof fetch = fetch) =>
    startCashu({
      mnemonic: words,
      store: s,
      fetch: fetchFn,
      hooks: { mints: () => [mintA, mintB], record: async (e) => void recorded.push(...e) },
    });

  /** The sats the events say moved at `mint` (received less sent and fees). */
  const folded = (events: readonly NewEvent[], mint: string) => {
    let sum = 0n;
    const seen = new Set<string>();
    for (const e of events) {
      if (e.type !== "ecash.received" && e.type !== "ecash.sent") continue;
      if (e.payload.mint !== mint || seen.has(`${e.type}${e.payload.op}`)) continue;
      seen.add(`${e.type}${e.payload.op}`);
      sum +=
        e.type === "ecash.received"
          ? BigInt(e.payload.amount)
          : -BigInt(e.payload.amount) - BigInt(e.payload.fee);
    }
    return sum;
  };
  const log: NewEvent[] = [];
  const keep = <T extends { events: readonly NewEvent[] }>(r: T) => {
    log.push(...r.events);
    return r;
  };
  const pay = (bolt11: string) => postJson(h.esploraUrl, "/ln/pay", { bolt11 });

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
    mintA = h.cashu.mintUrl;
    mintB = h.cashu.mint2Url;
    port = await start();
  }, LONG);
  afterAll(async () => {
    await port?.stop();
    await h?.stop();
  });

  it(
    "receives over lightning: the mint's invoice, paid by the world, becomes ecash here",
    async () => {
      const q = await port.receiveQuote(mintA, 10_000n);
      expect(q.amountSats).toBe(10_000n);
      expect(await port.checkReceives(mintA)).toEqual([]);
      await pay(q.bolt11);
      const events = await port.checkReceives(mintA);
      log.push(...events);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: "ecash.received",
        payload: { amount: "10000", via: "lightning" },
      });
      expect(await port.balance(mintA)).toBe(10_000n);
      // Minted once: checking again finds nothing new.
      expect(await port.checkReceives(mintA)).toEqual([]);
    },
    LONG,
  );

  it(
    "an outside wallet's token is received here, and a token sent from here is redeemed by it",
    async () => {
      const outside = new Wallet(new Mint(mintA), { unit: "sat" });
      await outside.loadMint();
      const quote = await outside.createMintQuoteBolt11(321);
      await pay(quote.request);
      const minted = await outside.mintProofsBolt11(321, quote.quote);
      const token = getEncodedToken({ mint: mintA, proofs: minted, unit: "sat" });
      const got = keep(await port.receiveToken(token));
      expect(got.amountSats).toBe(321n);
      await expect(port.receiveToken(token)).rejects.toThrow();
      expect(await port.balance(mintA)).toBe(10_321n);

      const sent = keep(await port.sendToken(mintA, 1_234n));
      expect(sent.token.startsWith("cashuB")).toBe(true);
      const redeemed = await outside.receive(sent.token);
      expect(redeemed.reduce((s, p) => s + BigInt(p.amount.toString()), 0n)).toBe(1_234n);
      expect(await port.balance(mintA)).toBe(10_321n - 1_234n);
    },
    LONG,
  );

  it(
    "pays an invoice from ecash: the fee is known first, the unused reserve comes back",
    async () => {
      const before = await port.balance(mintA);
      const invoice = await worldInvoice(h.esploraUrl, 500);
      const q = await port.meltQuote(mintA, invoice.bolt11);
      expect(q.amountSats).toBe(500n);
      await expect(port.melt(mintA, q.quoteId, 501n, q.feeSats)).rejects.toThrow(/amount/);
      await expect(port.melt(mintA, q.quoteId, 500n, q.feeSats - 1n)).rejects.toThrow(/fee/);
      const paid = await port.melt(mintA, q.quoteId, 500n, q.feeSats);
      log.push(...paid.events);
      expect(paid.status).toBe("paid");
      expect(paid.feeSats).toBeLessThanOrEqual(q.feeSats);
      expect(await port.balance(mintA)).toBe(before - 500n - paid.feeSats);
    },
    LONG,
  );

  it(
    "a melt whose answer never came (the wallet stopped) is settled at the next start, paid once",
    async () => {
      const before = await port.balance(mintA);
      const invoice = await worldInvoice(h.esploraUrl, 700);
      // A wallet whose melt request reaches the mint, which pays and answers, but whose answer never arrives.
      const crashStore = store;
      let sent = false;
      const dying: typeof fetch = async (input, init) => {
        const url = urlOf(input);
        if (url.endsWith("/v1/melt/bolt11")) {
          await fetch(input, init);
          // Only once the mint answered: on a busy machine its payment can take a while, and a restart
          // before it ends rightly finds the melt still pending.
          sent = true;
          return new Promise<Response>(() => undefined);
        }
        return fetch(input, init);
      };
      await port.stop();
      const doomed = await start(crashStore, mnemonic, dying);
      const q = await doomed.meltQuote(mintA, invoice.bolt11);
      void doomed.melt(mintA, q.quoteId, 700n, q.feeSats);
      await expect.poll(() => sent, { timeout: 120_000 }).toBe(true);
      expect(decodeState(await crashStore.get(stateKey(mintA))).pending?.kind).toBe("melt");

      // The next start asks the mint (NUT-05 quote state, NUT-09 change) instead of paying again.
      port = await start(crashStore);
      const events = await port.recover(mintA);
      log.push(...events);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "ecash.sent", payload: { amount: "700" } });
      const settledEvent = events[0] as NewEvent & { payload: { fee: string } };
      const fee = BigInt(settledEvent.payload.fee);
      expect(fee).toBeLessThanOrEqual(q.feeSats);
      expect(await port.balance(mintA)).toBe(before - 700n - fee);
      expect(await port.recover(mintA)).toEqual([]);
      expect(decodeState(await crashStore.get(stateKey(mintA))).pending).toBeNull();
      // The events kept for a crash's replay include it: a restart records nothing twice.
      expect(decodeState(await crashStore.get(stateKey(mintA))).outbox.at(-1)).toEqual(events[0]);
    },
    LONG,
  );

  it(
    "moves ecash between the two mints over lightning (a mint quote of one paid by a melt at the other)",
    async () => {
      const q = await port.receiveQuote(mintB, 2_000n, "transfer");
      const m = await port.meltQuote(mintA, q.bolt11);
      const paid = await port.melt(mintA, m.quoteId, m.amountSats, m.feeSats, "transfer");
      log.push(...paid.events);
      const arrived = await port.checkReceives(mintB);
      log.push(...arrived);
      expect(await port.balance(mintB)).toBe(2_000n);
    },
    LONG,
  );

  it(
    "sending and receiving tokens never loses or double-counts a sat (proof selection and change)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.bigInt({ min: 1n, max: 400n }), { minLength: 1, maxLength: 4 }),
          async (amounts) => {
            const start = await port.balance(mintA);
            const tokens: string[] = [];
            for (const a of amounts) tokens.push(keep(await port.sendToken(mintA, a)).token);
            expect(await port.balance(mintA)).toBe(start - amounts.reduce((s, a) => s + a, 0n));
            for (const t of tokens) keep(await port.receiveToken(t));
            // The world's mints charge no input fee: every sat is back, once.
            expect(await port.balance(mintA)).toBe(start);
          },
        ),
        { numRuns: 6 },
      );
      expect(folded(log, mintA)).toBe(await port.balance(mintA));
      expect(folded(log, mintB)).toBe(await port.balance(mintB));
    },
    LONG * 2,
  );

  it(
    "a mint whose signatures carry DLEQ proofs that do not verify credits nothing; honest again, the seed recovers them",
    async () => {
      const liar = `${mintA}/hostile/dleq-${Date.now()}`;
      dleqLiar = liar;
      const scope = liar.split("/").at(-1);
      await postJson(h.esploraUrl, "/hostile", { service: "cashu", scope, mode: "bad-dleq" });
      const q = await port.receiveQuote(liar, 300n);
      await pay(q.bolt11);
      await expect(port.checkReceives(liar)).rejects.toThrow(/DLEQ/);
      expect(await port.balance(liar)).toBe(0n);
      // The mint signed (the quote is issued): once it answers honestly, the counters it signed restore them.
      await postJson(h.esploraUrl, "/hostile", { service: "cashu", scope, mode: null });
      const events = await port.checkReceives(liar);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "ecash.received", payload: { amount: "300" } });
      expect(await port.balance(liar)).toBe(300n);
    },
    LONG,
  );

  it(
    "a melt the mint carries out but never answers is found paid by asking, and not paid again",
    async () => {
      const liar = `${mintA}/hostile/melt-${Date.now()}`;
      const scope = liar.split("/").at(-1);
      const quick = await startCashu({
        mnemonic: newMnemonic(),
        store: new MemoryBlobStore(),
        fetch,
        hooks: { mints: () => [liar], record: async () => undefined },
        limits: { timeoutMs: 5_000, maxBytes: 1024 * 1024 },
      });
      const q = await quick.receiveQuote(liar, 2_000n);
      await pay(q.bolt11);
      expect(await quick.checkReceives(liar)).toHaveLength(1);
      await postJson(h.esploraUrl, "/hostile", { service: "cashu", scope, mode: "melt-no-answer" });
      const invoice = await worldInvoice(h.esploraUrl, 500);
      const m = await quick.meltQuote(liar, invoice.bolt11);
      const paid = await quick.melt(liar, m.quoteId, 500n, m.feeSats);
      expect(paid.status).toBe("paid");
      expect(paid.events).toHaveLength(1);
      expect(await quick.balance(liar)).toBe(2_000n - 500n - paid.feeSats);
      expect(await quick.recover(liar)).toEqual([]);
      await expect(quick.melt(liar, m.quoteId, 500n, m.feeSats)).rejects.toThrow();
      expect(await quick.balance(liar)).toBe(2_000n - 500n - paid.feeSats);
      await postJson(h.esploraUrl, "/hostile", { service: "cashu", scope, mode: null });
      await quick.stop();
    },
    LONG,
  );

  it(
    "restores from the seed alone (NUT-09/13) what the wallet holds, in a wallet that lost its store",
    async () => {
      // What the seed holds at mint A's ledger, reached by either of its URLs.
      const held = (await port.balance(mintA)) + (dleqLiar ? await port.balance(dleqLiar) : 0n);
      const fresh = await start(new MemoryBlobStore());
      const r = await fresh.restore(mintA);
      expect(r.amountSats).toBe(held);
      expect(r.events).toHaveLength(1);
      const r2 = await fresh.restore(mintB);
      expect(r2.amountSats).toBe(await port.balance(mintB));
      // A second restore finds nothing new.
      expect((await fresh.restore(mintA)).amountSats).toBe(0n);
      await fresh.stop();
    },
    LONG,
  );

  it("a restore of 1,000 proofs asks in batches and counts each proof once, with its progress to the end", async () => {
    // 1,000 one-sat proofs made from a seed by cashu-ts's own wallet (NUT-13 counters 0 to 999).
    const words = newMnemonic();
    const outside = new Wallet(new Mint(mintA), { unit: "sat", bip39seed: mnemonicToSeedSync(words) });
    await outside.loadMint();
    for (let counter = 0; counter < 1_000; counter += 250) {
      const quote = await outside.createMintQuoteBolt11(250);
      await pay(quote.request);
      await until(
        "the mint to see its quote paid",
        async () => (await outside.checkMintQuoteBolt11(quote.quote)).state === "PAID",
        120_000,
      );
      await outside.mintProofsBolt11(250, quote.quote, undefined, {
        type: "deterministic",
        counter,
        denominations: Array(250).fill(1),
      });
    }
    const fresh = startCashu({
      mnemonic: words,
      store: new MemoryBlobStore(),
      fetch,
      hooks: { mints: () => [mintA], record: async () => undefined },
    });
    const progress: RestoreProgress[] = [];
    const r = await (await fresh).restore(mintA, (p) => progress.push(p));
    expect(r.amountSats).toBe(1_000n);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({
      type: "ecash.received",
      payload: { amount: "1000", via: "restore" },
    });
    expect(await (await fresh).balance(mintA)).toBe(1_000n);
    // Progress only grows and ends complete, every keyset begun and each proof found counted once; the
    // batches asked are far fewer than the proofs.
    for (const [i, p] of progress.entries()) {
      expect(p.complete).toBeLessThanOrEqual(p.total);
      expect(p.keyset).toBeLessThanOrEqual(p.keysets!);
      if (i > 0) expect(p.complete).toBeGreaterThanOrEqual(progress[i - 1]!.complete);
      if (i > 0) expect(p.proofs).toBeGreaterThanOrEqual(progress[i - 1]!.proofs!);
    }
    const last = progress.at(-1)!;
    expect(last.complete).toBe(last.total);
    expect(last.keyset).toBe(last.keysets);
    expect(last.proofs).toBe(1_000);
    expect(progress.length).toBeLessThan(20);
    // Again: nothing new, nothing recorded twice.
    const again = await (await fresh).restore(mintA);
    expect(again.amountSats).toBe(0n);
    expect(again.events).toHaveLength(0);
    await (await fresh).stop();
  }, 1_200_000);

  it(
    "restoring into a log that already counts the ecash (another device's, from the storage server) finds the proofs but records nothing twice",
    async () => {
      const held = await port.balance(mintB);
      expect(held).toBeGreaterThan(0n);
      const fresh = await start(new MemoryBlobStore());
      const all = await fresh.restore(mintB, undefined, held);
      expect(all.amountSats).toBe(held);
      expect(all.events).toHaveLength(0);
      await fresh.stop();
      // A log that counts part of it records only the rest.
      const other = await start(new MemoryBlobStore());
      const part = await other.restore(mintB, undefined, held - 1n);
      expect(part.amountSats).toBe(held);
      expect(part.events).toHaveLength(1);
      expect(JSON.stringify(part.events[0], (_k, v) => (typeof v === "bigint" ? String(v) : v))).toContain(
        '"1"',
      );
      await other.stop();
    },
    LONG,
  );
});
