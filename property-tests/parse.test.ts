import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Network } from "../src/events/types";
import {
  btcToSats,
  decodeBip21,
  encodeBip21,
  encodeLnurl,
  PaymentRequestError,
  parsePaymentRequest,
  routeIncomingString,
  satsToBtc,
} from "../src/engine/parse";
import bolt11 from "../src/engine/parse/vectors/bolt11.json";
import cashu from "../src/engine/parse/vectors/cashu.json";

const network = fc.constantFrom<Network>("bitcoin", "testnet", "signet", "regtest");

const ADDRESSES: ReadonlyArray<{ address: string; network: Network }> = [
  { address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", network: "bitcoin" },
  { address: "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", network: "bitcoin" },
  { address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", network: "bitcoin" },
  { address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", network: "testnet" },
  { address: "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", network: "signet" },
  { address: "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", network: "regtest" },
  { address: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", network: "regtest" },
];
/** Every BOLT11 example the wallet reads (one with fields to skip is refused whole, see bolt11.test.ts). */
const INVOICES = bolt11.valid.filter((v) => !v.title.startsWith("Same, but including fields"));
const MAINNET_INVOICES = INVOICES.filter((v) => v.network === "bitcoin").map((v) => v.invoice);

/** One valid string of every kind the parser reads. */
const VALID_INPUTS: readonly string[] = [
  ...ADDRESSES.map((a) => a.address),
  ...INVOICES.map((v) => v.invoice),
  ...cashu.valid.map((v) => v.token),
  `bitcoin:${ADDRESSES[0]?.address}?amount=0.001&label=Shop&message=Hi%20there&lightning=${MAINNET_INVOICES[0]}`,
  `bitcoin:${ADDRESSES[0]?.address}?pj=https://pj.example/x&req-pj=https://pj.example/x`,
  encodeLnurl("https://service.example/lnurlp/alice"),
  encodeLnurl("https://service.example/login?tag=login&k1=00"),
  "lnurlp://service.example/pay",
  "keyauth://service.example/login?k1=00",
  "alice@example.com",
  "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad@127.0.0.1:9735",
  "fed11qgqrgvnhwden5te0v9k8q6rp9ekh2arfdeukuet595cr2ttpd3jhq6rzve6zuer9wchxvetyd938gcewvdhk6tcqqysptkuvknc7erjgf4em3zfh90kffqf9srujn6q53d6r056e4apze5cw27h75",
  "nostr+walletauth://b889ff5b1513b641e2a139f661a661364979c5beee91842f8f0ef42ab558e9d4?relay=wss%3A%2F%2Frelay.damus.io&secret=b8a30fafa48d4795b6c0eec169a383de",
  "https://app.example/settings/plus?session=1",
];

/** Either a parsed request or a PaymentRequestError; anything else thrown fails the property. */
const parsesOrRefuses = (input: string, on: Network): void => {
  try {
    parsePaymentRequest(input, on);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentRequestError);
    expect([
      "Invalid payment request",
      expect.stringMatching(/^Destination is for \w+ but you're on \w+$/),
    ]).toContainEqual((error as Error).message);
  }
  try {
    routeIncomingString(input, on);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentRequestError);
  }
};

const anyString = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ maxLength: 100, unit: "binary" }),
  fc.string({ maxLength: 60, unit: "grapheme" }),
  fc
    .constantFrom(
      "lightning:",
      "bitcoin:",
      "lnurl1",
      "lnbc",
      "fed11",
      "cashuA",
      "cashuB",
      "nostr+walletauth://",
    )
    .chain((prefix) => fc.string({ maxLength: 120 }).map((rest) => prefix + rest)),
);

type Mutation =
  | { kind: "replace"; at: number; char: string }
  | { kind: "delete"; at: number }
  | { kind: "insert"; at: number; char: string }
  | { kind: "flipCase"; at: number }
  | { kind: "truncate"; at: number }
  | { kind: "append"; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("replace" as const),
    at: fc.nat(),
    char: fc.string({ minLength: 1, maxLength: 1 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    char: fc.string({ minLength: 1, maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant("flipCase" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("append" as const), text: fc.string({ maxLength: 8, unit: "binary" }) }),
);

const mutate = (input: string, m: Mutation): string => {
  const at = "at" in m ? m.at % (input.length + 1) : 0;
  switch (m.kind) {
    case "replace":
      return input.slice(0, at) + m.char + input.slice(at + 1);
    case "delete":
      return input.slice(0, at) + input.slice(at + 1);
    case "insert":
      return input.slice(0, at) + m.char + input.slice(at);
    case "flipCase": {
      const char = input.charAt(at);
      const flipped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
      return input.slice(0, at) + flipped + input.slice(at + 1);
    }
    case "truncate":
      return input.slice(0, at);
    case "append":
      return input + m.text;
  }
};

describe("parsePaymentRequest never throws anything but PaymentRequestError", () => {
  it("on arbitrary strings", () => {
    fc.assert(fc.property(anyString, network, parsesOrRefuses), { numRuns: 2_000 });
  });

  it("on valid inputs with a few mutations", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID_INPUTS),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        network,
        (input, ms, on) => parsesOrRefuses(ms.reduce(mutate, input), on),
      ),
      { numRuns: 3_000 },
    );
  });

  it("regression (found by the mutation property): a wallet-auth request with a lone surrogate after its secret", () => {
    const input = `${VALID_INPUTS.find((v) => v.startsWith("nostr+walletauth"))}\udc00\u{10000}`;
    expect(() => routeIncomingString(input, "bitcoin")).toThrow(PaymentRequestError);
  });

  it("reads every valid input on some network", () => {
    for (const input of VALID_INPUTS) {
      const read = (["bitcoin", "testnet", "signet", "regtest"] as const).some((on) => {
        try {
          routeIncomingString(input, on);
          return true;
        } catch {
          return false;
        }
      });
      expect(read, input).toBe(true);
    }
  });
});

const text = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 15, unit: "grapheme" }),
);
const amountSats = fc.oneof(fc.constant(null), fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n }));

describe("BIP21 build then parse", () => {
  it("keeps address, amount, label, message and lightning; refuses two amounts that disagree", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ADDRESSES),
        amountSats,
        text,
        text,
        fc.option(fc.constantFrom(...MAINNET_INVOICES), { nil: null }),
        ({ address, network: on }, amount, label, message, invoice) => {
          const lightning = on === "bitcoin" ? invoice : null;
          const uri = encodeBip21({ address, amountSats: amount, label, message, lightning });

          const decoded = decodeBip21(uri);
          expect(decoded?.address).toBe(address);
          expect(decoded?.amountSats).toBe(amount);
          expect(decoded?.label).toBe(label || null);
          expect(decoded?.message).toBe(message || null);
          expect(decoded?.lightning).toBe(lightning);

          const invoiceSats = lightning ? parsePaymentRequest(lightning, on).amount_sats : null;
          if (amount !== null && invoiceSats !== null && amount !== invoiceSats) {
            expect(() => parsePaymentRequest(uri, on)).toThrow(
              expect.objectContaining({ key: "payment_request.amount_mismatch" }),
            );
            return;
          }
          const request = parsePaymentRequest(uri, on);
          expect(request.address).toBe(address);
          expect(request.network).toBe(on);
          expect(request.invoice).toBe(lightning?.toLowerCase() ?? null);
          if (amount !== null) expect(request.amount_sats).toBe(amount);
          if (message) expect(request.memo).toBe(message);
          else if (label) expect(request.memo).toBe(label);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe("BTC amounts", () => {
  it("satsToBtc then btcToSats is the identity", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n }), (sats) => {
        expect(btcToSats(satsToBtc(sats))).toBe(sats);
      }),
    );
  });
});
