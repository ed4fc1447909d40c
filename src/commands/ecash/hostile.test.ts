/**
 * The ecash commands against the world's lying and silent Cashu mint (`<mint URL>/hostile/<scope>`): a mint
 * that does not answer delays only the command that asked it (the command queue is released while it
 * waits), a fee reserve above the wallet's lightning fee limit is refused before anything moves, quotes for
 * another amount or another invoice than asked are refused, and a transfer pays exactly the quote the owner
 * confirmed, for the destination's own invoice. Mints of the world charging input fees (NUT-02) on ports of
 * their own: one at the wallet's bound shows its fee before a transfer, one above it is neither joined nor used.
 */
import "fake-indexeddb/auto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8 } from "@scure/base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CashuMint } from "../../../harness/cashu/mint";
import { worldMintLightning } from "../../../harness/cashu/service";
import { startCashu } from "../../engine/ecash/cashu/live";
import { newMnemonic } from "../../engine/keys/mnemonic";
import { MemoryBlobStore } from "../../engine/lightning/store";
import { postJson, worldInvoice } from "../../../harness/http";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { ecashEngine } from "../../engine/ecash/engine";
import type { Platform } from "../../engine/engine";
import { WalletDb } from "../../events/db";
import type { AllViews } from "../../projections/live";
import type { EcashPaymentPreview } from "../command";
import type { CommandAnswer, WalletHost } from "../host/host";
import { chainOnlyConfig, nodePlatform, ok, openWorldHost } from "../host/host.testing";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { urlOf } from "../../engine/http/bounded";

const LONG = 240_000;
const SCOPE = "ecash-hostile";
let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
let liar = "";
let honest = "";
/** Requests the wallet sent to the lying mint, as paths after its URL. */
const asked: string[] = [];

const balanceAt = (mint: string) => views.federations?.find((f) => f.federation_id === mint)?.balance;
const lie = (mode: string | null, options: Record<string, unknown> = {}) =>
  postJson(h.esploraUrl, "/hostile", { service: "cashu", scope: SCOPE, mode, ...options });
/** The mint is honest again, and the lie moved nothing: the 5,000 sats held there are all still there. */
const untouched = async () => {
  await lie(null);
  expect(balanceAt(liar)).toBe(5_000n);
};

/** The answer of `p` once it came, or "waiting". */
const track = (p: Promise<CommandAnswer>) => {
  const t: { answer: CommandAnswer | "waiting" } = { answer: "waiting" };
  void p.then((a) => {
    t.answer = a;
  });
  return t;
};

const receive = async (mint: string, amountSats: bigint) => {
  const q = ok<{ bolt11: string }>(await host.run({ _tag: "ReceiveEcash", federationId: mint, amountSats }));
  await postJson(h.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
  await until(
    "the ecash minted",
    async () =>
      ok<{ receivedSats: bigint }>(await host.run({ _tag: "CheckEcash", federationId: mint })).receivedSats >
      0n,
    60_000,
    500,
  );
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  liar = `${h.cashu.mintUrl}/hostile/${SCOPE}`;
  honest = h.cashu.mint2Url;
  const config = chainOnlyConfig(h.esploraUrl);
  const observed: typeof fetch = (input, init) => {
    const url = urlOf(input);
    if (url.startsWith(liar)) asked.push(url.slice(liar.length));
    return fetch(input, init);
  };
  const platform: Platform = { ...nodePlatform, fetch: observed };
  const onViews = (v: Partial<AllViews>) => {
    views = { ...views, ...v };
  };
  host = await openWorldHost(new WalletDb("ecash-hostile"), config, onViews, {
    list: [ecashEngine],
    platform,
  });
  ok(await host.run({ _tag: "CreateWallet" }));
  ok(await host.run({ _tag: "JoinFederation", code: liar }));
  ok(await host.run({ _tag: "JoinFederation", code: honest }));
  await receive(liar, 5_000n);
}, LONG);

/** The fee mints' servers and lightning sides, stopped at the end. */
const feeMints: { server: Server; stop: () => void }[] = [];
afterAll(() => {
  for (const m of feeMints) {
    m.server.closeAllConnections();
    m.server.close();
    m.stop();
  }
});

/** A mint of the world (backed by its lightning node) charging `ppk` per coin spent; answers its URL. */
const feeMint = async (ppk: number): Promise<string> => {
  const ln = worldMintLightning(h.lightning, h.payer);
  const mint = new CashuMint(
    {
      name: `Mint at ${ppk} ppk`,
      description: "A mint of the local world that charges input fees.",
      seed: sha256(utf8.decode(`local world fee mint ${ppk}`)),
      inputFeePpk: ppk,
    },
    ln,
  );
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      const r = await mint.handle(req.method ?? "GET", (req.url ?? "/").replace(/^\/cashu/, ""), body);
      res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify(r.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  feeMints.push({ server, stop: ln.stop });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cashu`;
  mint.urls = [url];
  return url;
};

// A test that failed half-way leaves no lie behind for the next.
afterEach(async () => {
  await lie(null);
});

stopAfterAll(() => [host, h]);

describe("ecash against a lying or silent mint", () => {
  it(
    "a silent mint delays only the command that asked it: contacts and another mint answer meanwhile",
    async () => {
      // An invoice of the mint waits to be paid, so checking it asks the mint.
      ok(await host.run({ _tag: "ReceiveEcash", federationId: liar, amountSats: 1_000n }));
      await lie("never-answers");
      const before = asked.length;
      const check = track(host.run({ _tag: "CheckEcash", federationId: liar }));
      await until("the check to ask the mint", () => asked.length > before);
      // Another command answers while the check waits on the mint.
      ok(await host.run({ _tag: "CreateContact", name: "Alice", npub: "", ln_address: "alice@example.com" }));
      // So does another mint.
      const other = ok<{ bolt11: string }>(
        await host.run({ _tag: "ReceiveEcash", federationId: honest, amountSats: 100n }),
      );
      expect(other.bolt11).toMatch(/^lnbcrt1u1/);
      expect(check.answer).toBe("waiting");
      expect(views.contacts?.map((c) => c.name)).toContain("Alice");
      // The mint's request is bounded: the check ends (unreachable), and nothing changed.
      await until("the check to give up on the mint", () => check.answer !== "waiting", 120_000, 250);
      expect(check.answer).toMatchObject({ ok: false, error: { _tag: "ServerUnavailable" } });
      await untouched();
    },
    LONG,
  );

  it(
    "a fee reserve above the wallet's lightning fee limit is refused before anything moves",
    async () => {
      await lie("huge-fee-reserve", { reserve: 1_000 });
      // A 200-sat transfer for which the source names a 1,000-sat fee reserve (the limit is 10 sats).
      expect(
        await host.run({ _tag: "QuoteEcashTransfer", from: liar, to: honest, amountSats: 200n }),
      ).toMatchObject({
        ok: false,
        error: {
          _tag: "InvalidInput",
          key: "federations.error_fee_reserve",
          values: { fee: "1000", amount: "200", limit: "10" },
        },
      });
      // Paying an invoice from ecash at that mint: the same limit.
      const { bolt11 } = await worldInvoice(h.esploraUrl, 200);
      expect(await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11 })).toMatchObject({
        ok: false,
        error: { key: "federations.error_fee_reserve" },
      });
      // A reserve within the limit (1 % of 5,000 sats is 50) is shown and may be paid.
      await lie("huge-fee-reserve", { reserve: 40 });
      const big = await worldInvoice(h.esploraUrl, 4_000);
      const q = ok<EcashPaymentPreview>(
        await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11: big.bolt11 }),
      );
      expect(q.feeSats).toBeGreaterThanOrEqual(40n);
      await untouched();
    },
    LONG,
  );

  it(
    "quotes for another amount than asked are refused",
    async () => {
      await lie("wrong-amount");
      const { bolt11 } = await worldInvoice(h.esploraUrl, 300);
      expect(await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11 })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", message: expect.stringMatching(/amount/) },
      });
      expect(await host.run({ _tag: "ReceiveEcash", federationId: liar, amountSats: 300n })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", message: expect.stringMatching(/amount/) },
      });
      await untouched();
    },
    LONG,
  );

  it(
    "a transfer pays only a quote for the invoice its destination gave for that amount",
    async () => {
      // A quote the source prepared for someone else's invoice, of the transfer's very amount.
      const { bolt11 } = await worldInvoice(h.esploraUrl, 1_000);
      const elsewhere = ok<EcashPaymentPreview>(
        await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11 }),
      );
      const transfer = {
        _tag: "TransferEcash",
        from: liar,
        to: honest,
        quoteId: elsewhere.quoteId,
        amountSats: elsewhere.amountSats,
        feeSats: elsewhere.feeSats,
      } as const;
      const refused = {
        ok: false,
        error: { _tag: "InvalidInput", key: "federations.error_transfer_invoice" },
      };
      expect(await host.run(transfer)).toMatchObject(refused);
      // A quote for the destination's invoice, paid for another amount than the destination awaits.
      const quote = ok<EcashPaymentPreview>(
        await host.run({ _tag: "QuoteEcashTransfer", from: liar, to: honest, amountSats: 700n }),
      );
      expect(
        await host.run({ ...transfer, quoteId: quote.quoteId, amountSats: 699n, feeSats: quote.feeSats }),
      ).toMatchObject(refused);
      await untouched();
    },
    LONG,
  );

  it(
    "a melt quote naming another invoice than the one asked is refused, when quoted and when paid",
    async () => {
      await lie("other-invoice");
      const { bolt11 } = await worldInvoice(h.esploraUrl, 300);
      const refused = { ok: false, error: { _tag: "InvalidInput", key: "federations.error_quote_invoice" } };
      expect(await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11 })).toMatchObject(refused);
      expect(
        await host.run({ _tag: "QuoteEcashTransfer", from: liar, to: honest, amountSats: 300n }),
      ).toMatchObject(refused);
      // Quoted honestly, then named another invoice when the wallet checks the quote before paying it.
      await lie(null);
      const q = ok<EcashPaymentPreview>(
        await host.run({ _tag: "EcashMeltQuote", federationId: liar, bolt11 }),
      );
      await lie("other-invoice");
      expect(
        await host.run({
          _tag: "PayInvoiceFromEcash",
          federationId: liar,
          quoteId: q.quoteId,
          amountSats: q.amountSats,
          feeSats: q.feeSats,
        }),
      ).toMatchObject(refused);
      await untouched();
    },
    LONG,
  );

  it(
    "a transfer pays the quote the owner confirmed, and no other amount",
    async () => {
      const quote = ok<EcashPaymentPreview>(
        await host.run({ _tag: "QuoteEcashTransfer", from: liar, to: honest, amountSats: 1_200n }),
      );
      expect(quote.amountSats).toBe(1_200n);
      const transfer = { _tag: "TransferEcash", from: liar, to: honest, quoteId: quote.quoteId } as const;
      expect(await host.run({ ...transfer, amountSats: 1_000n, feeSats: quote.feeSats })).toMatchObject({
        ok: false,
        // The destination's invoice is for 1,200 sats: a quote paying 1,000 pays no invoice it gave.
        error: { key: "federations.error_transfer_invoice" },
      });
      const paid = ok<{ status: string; amountSats: bigint; feeSats: bigint }>(
        await host.run({ ...transfer, amountSats: quote.amountSats, feeSats: quote.feeSats }),
      );
      expect(paid).toMatchObject({ status: "paid", amountSats: 1_200n });
      expect(paid.feeSats).toBeLessThanOrEqual(quote.feeSats);
      expect(balanceAt(honest)).toBe(1_200n);
      expect(balanceAt(liar)).toBe(5_000n - 1_200n - paid.feeSats);
    },
    LONG,
  );

  it(
    "a mint's input fee is shown in the fee before a transfer, and one above a sat per coin is refused",
    async () => {
      const fair = await feeMint(1_000);
      ok(await host.run({ _tag: "JoinFederation", code: fair }));
      await receive(fair, 5_000n);
      const quote = ok<EcashPaymentPreview>(
        await host.run({ _tag: "QuoteEcashTransfer", from: fair, to: honest, amountSats: 1_000n }),
      );
      expect(quote.amountSats).toBe(1_000n);
      // The lightning fee reserve (1 %: 10 sats) and one sat for each coin the melt spends (the wallet holds
      // 5,000 sats in five coins).
      const inputFee = quote.feeSats - 10n;
      expect(inputFee).toBeGreaterThanOrEqual(1n);
      expect(inputFee).toBeLessThanOrEqual(5n);
      const paid = ok<{ status: string; amountSats: bigint; feeSats: bigint }>(
        await host.run({
          _tag: "TransferEcash",
          from: fair,
          to: honest,
          quoteId: quote.quoteId,
          amountSats: quote.amountSats,
          feeSats: quote.feeSats,
        }),
      );
      expect(paid).toMatchObject({ status: "paid", amountSats: 1_000n });
      expect(paid.feeSats).toBeLessThanOrEqual(quote.feeSats);
      expect(balanceAt(fair)).toBe(5_000n - 1_000n - paid.feeSats);

      // Five sats per coin: not joined.
      const greedy = await feeMint(5_000);
      expect(await host.run({ _tag: "JoinFederation", code: greedy })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", key: "federations.error_input_fee", values: { fee: "5", limit: "1" } },
      });
      expect(views.federations?.some((f) => f.federation_id === greedy)).toBe(false);
      // Nor used, had it raised its fee after the owner joined: the engine reads its keysets again.
      const adapter = await startCashu({
        mnemonic: newMnemonic(),
        store: new MemoryBlobStore(),
        fetch,
        hooks: { mints: () => [greedy], record: async () => undefined },
      });
      await expect(adapter.receiveQuote(greedy, 100n)).rejects.toMatchObject({
        key: "federations.error_input_fee",
      });
      await adapter.stop();
    },
    LONG,
  );
});
