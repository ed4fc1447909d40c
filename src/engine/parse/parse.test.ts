import { describe, expect, it } from "vitest";
import { encodeBip21 } from "./bip21";
import { PaymentRequestError } from "./errors";
import { encodeLnurl } from "./lnurl";
import { parsePaymentRequest } from "./parse";
import bolt11 from "./vectors/bolt11.json";

const MAINNET_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const TESTNET_ADDRESS = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
const REGTEST_ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
const BASE58_TEST_ADDRESS = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn";
const INVOICE = bolt11.valid[1]?.invoice ?? ""; // lnbc2500u, '1 cup coffee'
const TESTNET_INVOICE = bolt11.valid.find((v) => v.network === "testnet")?.invoice ?? "";
const NODE = "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad";
const FEDERATION =
  "fed11qgqrgvnhwden5te0v9k8q6rp9ekh2arfdeukuet595cr2ttpd3jhq6rzve6zuer9wchxvetyd938gcewvdhk6tcqqysptkuvknc7erjgf4em3zfh90kffqf9srujn6q53d6r056e4apze5cw27h75";
const NWA =
  "nostr+walletauth://b889ff5b1513b641e2a139f661a661364979c5beee91842f8f0ef42ab558e9d4?relay=wss%3A%2F%2Frelay.damus.io&secret=b8a30fafa48d4795b6c0eec169a383de&required_commands=pay_invoice";

const refusal = (input: string, network: Parameters<typeof parsePaymentRequest>[1]) => {
  try {
    parsePaymentRequest(input, network);
  } catch (error) {
    return error;
  }
  throw new Error(`accepted ${input}`);
};

describe("parsePaymentRequest: on-chain", () => {
  it("reads an address with whitespace, in upper case, and keeps the original", () => {
    const request = parsePaymentRequest(`  ${MAINNET_ADDRESS.toUpperCase()}\n`, "bitcoin");
    expect(request).toMatchObject({
      address: MAINNET_ADDRESS,
      network: "bitcoin",
      invoice: null,
      amount_sats: null,
    });
    expect(request.original).toBe(`  ${MAINNET_ADDRESS.toUpperCase()}\n`);
  });

  it("reads addresses of each network on their network", () => {
    expect(parsePaymentRequest(TESTNET_ADDRESS, "testnet").network).toBe("testnet");
    expect(parsePaymentRequest(REGTEST_ADDRESS, "regtest").network).toBe("regtest");
    expect(parsePaymentRequest(BASE58_TEST_ADDRESS, "regtest").network).toBe("regtest");
    expect(parsePaymentRequest(BASE58_TEST_ADDRESS, "signet").network).toBe("signet");
  });

  it("names both networks when an address is for another one", () => {
    const error = refusal(REGTEST_ADDRESS, "bitcoin");
    expect(error).toBeInstanceOf(PaymentRequestError);
    expect((error as PaymentRequestError).message).toBe("Destination is for regtest but you're on bitcoin");
    expect((error as PaymentRequestError).key).toBe("payment_request.wrong_network");
    expect((error as PaymentRequestError).values).toEqual({ destination: "regtest", wallet: "bitcoin" });
    expect(() => parsePaymentRequest(MAINNET_ADDRESS, "signet")).toThrow(
      "Destination is for bitcoin but you're on signet",
    );
  });

  it("reads a BIP21 URI: amount in exact sats, message as memo, payjoin", () => {
    const request = parsePaymentRequest(
      `BITCOIN:${MAINNET_ADDRESS}?amount=0.00012345&label=Shop&message=Order%2042&pj=https://shop.example/pj`,
      "bitcoin",
    );
    expect(request).toMatchObject({
      address: MAINNET_ADDRESS,
      amount_sats: 12_345n,
      memo: "Order 42",
      payjoin_enabled: true,
      invoice: null,
    });
    expect(parsePaymentRequest(`bitcoin:${MAINNET_ADDRESS}?label=Shop`, "bitcoin").memo).toBe("Shop");
  });

  it("reads a unified BIP21 with a lightning invoice", () => {
    const uri = encodeBip21({
      address: MAINNET_ADDRESS,
      amountSats: 250_000n,
      lightning: INVOICE.toUpperCase(),
    });
    const request = parsePaymentRequest(uri, "bitcoin");
    expect(request).toMatchObject({ address: MAINNET_ADDRESS, invoice: INVOICE, amount_sats: 250_000n });
    expect(request.memo).toBe("1 cup coffee");
    expect(parsePaymentRequest(`bitcoin:?lightning=${INVOICE}`, "bitcoin").address).toBeNull();
  });

  it("refuses a link whose amount disagrees with its invoice's, whichever is larger", () => {
    // The invoice asks 250,000 sats; a link showing 1,000 would have paid 250 times what it showed.
    for (const amountSats of [1_000n, 249_999n, 250_001n]) {
      const uri = encodeBip21({ address: MAINNET_ADDRESS, amountSats, lightning: INVOICE });
      const error = refusal(uri, "bitcoin");
      expect(error).toBeInstanceOf(PaymentRequestError);
      expect((error as PaymentRequestError).key).toBe("payment_request.amount_mismatch");
    }
  });

  it("refuses BIP21 URIs with required unknown parameters, bad amounts or bad addresses", () => {
    for (const uri of [
      `bitcoin:${MAINNET_ADDRESS}?req-future=1`,
      `bitcoin:${MAINNET_ADDRESS}?amount=0.000000001`,
      `bitcoin:${MAINNET_ADDRESS}?amount=-1`,
      `bitcoin:${MAINNET_ADDRESS}?amount=21000000.00000001`,
      `bitcoin:${MAINNET_ADDRESS}?amount=99999999999`,
      "bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W",
      "bitcoin:",
    ]) {
      expect(() => parsePaymentRequest(uri, "bitcoin")).toThrow("Invalid payment request");
    }
  });
});

describe("parsePaymentRequest: lightning", () => {
  it("reads an invoice with or without lightning:, in either case", () => {
    for (const input of [
      INVOICE,
      `lightning:${INVOICE}`,
      `LIGHTNING:${INVOICE.toUpperCase()}`,
      ` ${INVOICE} `,
    ]) {
      expect(parsePaymentRequest(input, "bitcoin")).toMatchObject({
        invoice: INVOICE,
        amount_sats: 250_000n,
        network: "bitcoin",
        memo: "1 cup coffee",
      });
    }
  });

  it("accepts testnet invoices on signet but not on mainnet", () => {
    expect(parsePaymentRequest(TESTNET_INVOICE, "signet").network).toBe("testnet");
    expect(() => parsePaymentRequest(TESTNET_INVOICE, "bitcoin")).toThrow(
      "Destination is for testnet but you're on bitcoin",
    );
    expect(() => parsePaymentRequest(INVOICE, "regtest")).toThrow(
      "Destination is for bitcoin but you're on regtest",
    );
  });

  it("reads a node id, with or without an address", () => {
    expect(parsePaymentRequest(NODE, "regtest")).toMatchObject({ node_pubkey: NODE, network: "regtest" });
    expect(parsePaymentRequest(`${NODE.toUpperCase()}@127.0.0.1:9735`, "bitcoin").node_pubkey).toBe(NODE);
    expect(() => parsePaymentRequest(`02${"00".repeat(32)}`, "bitcoin")).toThrow("Invalid payment request");
  });

  it("reads LNURLs: pay, withdraw and auth", () => {
    const pay = encodeLnurl("https://service.example/lnurlp/alice");
    expect(parsePaymentRequest(`lightning:${pay}`, "bitcoin")).toMatchObject({
      lnurl: "https://service.example/lnurlp/alice",
      is_lnurl_auth: false,
    });
    const auth = encodeLnurl("https://service.example/login?tag=login&k1=ab");
    expect(parsePaymentRequest(auth.toLowerCase(), "bitcoin").is_lnurl_auth).toBe(true);
    expect(parsePaymentRequest("lnurlw://service.example/w", "bitcoin").lnurl).toBe(
      "https://service.example/w",
    );
    expect(parsePaymentRequest(`https://service.example/redeem?id=1&lightning=${pay}`, "bitcoin").lnurl).toBe(
      "https://service.example/lnurlp/alice",
    );
  });

  it("reads lightning addresses (LUD-16) as their LNURL-pay endpoint", () => {
    expect(parsePaymentRequest(" Alice@Example.com ", "bitcoin")).toMatchObject({
      lightning_address: "alice@example.com",
      lnurl: "https://example.com/.well-known/lnurlp/alice",
    });
    expect(parsePaymentRequest("lightning:bob@localhost:8080", "regtest").lnurl).toBe(
      "http://localhost:8080/.well-known/lnurlp/bob",
    );
    for (const bad of ["alice@", "@example.com", "a b@example.com", "alice@example", "alice@@example.com"]) {
      expect(() => parsePaymentRequest(bad, "bitcoin")).toThrow("Invalid payment request");
    }
  });
});

describe("parsePaymentRequest: other destinations", () => {
  it("reads a fedimint invite", () => {
    expect(parsePaymentRequest(FEDERATION.toUpperCase(), "signet").fedimint_invite).toBe(FEDERATION);
    expect(() => parsePaymentRequest(`${FEDERATION.slice(0, -1)}q`, "signet")).toThrow(
      "Invalid payment request",
    );
  });

  it("reads a nostr wallet-auth request", () => {
    expect(parsePaymentRequest(NWA, "bitcoin").nostr_wallet_auth).toBe(NWA);
    // The form apps' libraries make now names the methods instead of a secret.
    const current = NWA.replace(/&secret=[0-9a-f]+/, "").replace("required_commands", "request_methods");
    expect(parsePaymentRequest(current, "bitcoin").nostr_wallet_auth).toBe(current);
    const neither = NWA.replace(/&secret=[0-9a-f]+/, "").replace(/&required_commands=[a-z_]+/, "");
    expect(() => parsePaymentRequest(neither, "bitcoin")).toThrow("Invalid payment request");
  });

  it("refuses what is none of these", () => {
    for (const input of [
      "",
      "   ",
      "hello",
      "lnbc1",
      "bitcoin",
      "lightning:",
      "https://example.com",
      "x".repeat(200_000),
    ]) {
      const error = refusal(input, "bitcoin");
      expect(error).toBeInstanceOf(PaymentRequestError);
      expect((error as PaymentRequestError).message).toBe("Invalid payment request");
      expect((error as PaymentRequestError).key).toBe("payment_request.invalid");
    }
  });
});
