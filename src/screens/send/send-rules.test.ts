import { describe, expect, it } from "vitest";
import { parsePaymentRequest } from "../../ui/incoming";
import {
  type AmountCheck,
  amountProblem,
  ecashCovers,
  fixedAmount,
  methodsFor,
  routeFor,
  waitsForChannel,
} from "./send-rules";

const ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
const NODE = "02c3b844b8104f0c1b15c507774c9ba7fc609f58f343b9b149122e944dd20c9362";
const b = { lightning: 5_000n, onchain: 100_000n };

const check = (over: Partial<AmountCheck>): AmountCheck => ({
  amountSats: 1_000n,
  route: { kind: "onchain", address: ADDRESS },
  balance: 100_000n,
  invoiceAmount: null,
  expiresAt: null,
  nowSecs: 1_000,
  lnurlRange: null,
  sendAll: false,
  ...over,
});

describe("send rules", () => {
  it("an address offers on-chain; a node id or lightning address offers lightning", () => {
    const onchain = parsePaymentRequest(ADDRESS, "regtest");
    expect(methodsFor(onchain, b)).toEqual([{ method: "onchain", maxAmountSats: 100_000n }]);
    expect(routeFor(onchain, "onchain")).toEqual({ kind: "onchain", address: ADDRESS });
    expect(routeFor(onchain, "lightning")).toBeNull();
    const node = parsePaymentRequest(NODE, "regtest");
    expect(methodsFor(node, b)).toEqual([{ method: "lightning", maxAmountSats: 5_000n }]);
    expect(routeFor(node, "lightning")).toEqual({ kind: "keysend", pubkey: NODE });
    const la = parsePaymentRequest("alice@127.0.0.1:3000", "regtest");
    expect(routeFor(la, "lightning")).toMatchObject({ kind: "lnurl" });
  });
  it("a fixed pay range or an invoice amount freezes the amount", () => {
    const la = parsePaymentRequest("alice@127.0.0.1:3000", "regtest");
    const route = routeFor(la, "lightning");
    expect(fixedAmount(la, route, { min: 10n, max: 10n })).toBe(10n);
    expect(fixedAmount(la, route, { min: 1n, max: 10n })).toBeNull();
  });
  it("names the rule an amount breaks", () => {
    expect(amountProblem(check({}))).toBeNull();
    expect(amountProblem(check({ amountSats: 0n }))).toBe("send.error_amount_zero");
    expect(amountProblem(check({ amountSats: 200_000n }))).toBe("send.error_low_balance");
    expect(amountProblem(check({ amountSats: 500n }))).toBe("receive.error_under_min_onchain");
    const invoice = { kind: "invoice", bolt11: "lnbcrt1" } as const;
    expect(amountProblem(check({ route: invoice, invoiceAmount: 900n }))).toBe("send.error_invoice_match");
    expect(amountProblem(check({ route: invoice, expiresAt: 999 }))).toBe("send.error_expired");
    const lnurl = { kind: "lnurl", lnurl: "http://127.0.0.1/x" } as const;
    expect(amountProblem(check({ route: lnurl, lnurlRange: { min: 2_000n, max: 3_000n } }))).toBe(
      "lnurl.error_amount_range",
    );
    expect(amountProblem(check({ sendAll: true, amountSats: 0n }))).toBeNull();
    expect(amountProblem(check({ sendAll: true, balance: 0n }))).toBe("send.error_low_balance");
  });

  it("says a lightning payment waits for its channel while the node starts or a peer is connecting", () => {
    const invoice = { kind: "invoice", bolt11: "lnbcrt1" } as const;
    const onchain = { kind: "onchain", address: ADDRESS } as const;
    const connected = { lightning: "ready", peer_status: [{ state: "connected" }] };
    const connecting = { lightning: "ready", peer_status: [{ state: "connecting" }] };
    expect(waitsForChannel(invoice, connected)).toBe(false);
    expect(waitsForChannel(invoice, connecting)).toBe(true);
    expect(waitsForChannel(invoice, { lightning: "ready", peer_status: [{ state: "unreachable" }] })).toBe(
      true,
    );
    expect(waitsForChannel(invoice, { lightning: "starting" })).toBe(true);
    expect(waitsForChannel(onchain, connecting)).toBe(false);
    expect(waitsForChannel(null, connecting)).toBe(false);
  });

  it("refuses more than can leave over lightning in words that say what can, when the rest is held back", () => {
    const ln = { kind: "invoice", bolt11: "lnbcrt1" } as const;
    const over = check({ route: ln, amountSats: 531_002n, balance: 528_002n });
    expect(amountProblem({ ...over, heldBack: true })).toBe("send.error_over_sendable");
    expect(amountProblem(over)).toBe("send.error_low_balance");
    expect(amountProblem({ ...over, amountSats: 528_002n, heldBack: true })).toBeNull();
  });

  it("offers ecash as a source for an invoice only where it covers the amount and the mint's fee", () => {
    expect(ecashCovers(10_000n, { amountSats: 1_000n, feeSats: 3n })).toBe(true);
    expect(ecashCovers(1_002n, { amountSats: 1_000n, feeSats: 3n })).toBe(false);
    expect(ecashCovers(1_003n, { amountSats: 1_000n, feeSats: 3n })).toBe(true);
    const mint = { id: "https://mint", name: "Mint", balance: 10_000n };
    const node = parsePaymentRequest(NODE, "regtest");
    // A node id (keysend) is never paid from ecash: only an invoice is.
    expect(methodsFor(node, b, mint).map((m) => m.method)).toEqual(["lightning"]);
    const invoice = { ...node, node_pubkey: null, invoice: "lnbcrt1" };
    expect(methodsFor(invoice, b, mint)).toEqual([
      { method: "lightning", maxAmountSats: 5_000n },
      { method: "ecash", maxAmountSats: 10_000n, custodian: { id: "https://mint", name: "Mint" } },
    ]);
    expect(methodsFor(invoice, b).map((m) => m.method)).toEqual(["lightning"]);
    expect(routeFor(invoice, "ecash")).toEqual({ kind: "invoice", bolt11: "lnbcrt1" });
  });
});
