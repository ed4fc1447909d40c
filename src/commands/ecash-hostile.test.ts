/**
 * The ecash commands against the world's lying and silent Cashu mint (`<mint URL>/hostile/<scope>`): a mint
 * that does not answer delays only the command that asked it (the command queue is released while it
 * waits), a fee reserve above the wallet's lightning fee limit is refused before anything moves, quotes for
 * another amount than asked are refused, and a transfer pays exactly the quote the owner confirmed.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { postJson, worldInvoice } from "../../harness/http";
import { until } from "../../harness/until";
import { type Harness, startHarness } from "../../harness/world";
import { ecashEngine } from "../engine/ecash/engine";
import type { Platform } from "../engine/engine";
import { WalletDb } from "../events/db";
import type { AllViews } from "../projections/live";
import type { EcashPaymentPreview } from "./command";
import type { CommandAnswer, WalletHost } from "./host";
import { chainOnlyConfig, nodePlatform, ok, openWorldHost } from "./host.testing";
import { stopAfterAll } from "../../harness/stop-after-all";
import { urlOf } from "../engine/http/bounded";

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
    "a transfer pays the quote the owner confirmed, and no other amount",
    async () => {
      const quote = ok<EcashPaymentPreview>(
        await host.run({ _tag: "QuoteEcashTransfer", from: liar, to: honest, amountSats: 1_200n }),
      );
      expect(quote.amountSats).toBe(1_200n);
      const transfer = { _tag: "TransferEcash", from: liar, to: honest, quoteId: quote.quoteId } as const;
      expect(await host.run({ ...transfer, amountSats: 1_000n, feeSats: quote.feeSats })).toMatchObject({
        ok: false,
        error: { message: "The amount does not match the invoice." },
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
});
