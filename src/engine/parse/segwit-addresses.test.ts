import { describe, expect, it } from "vitest";
import { parsePaymentRequest } from "./parse";
import vectors from "./vectors/segwit-addresses.json";

const networkOf = (address: string) => (address.toLowerCase().startsWith("bc1") ? "bitcoin" : "testnet");

/**
 * Valid BIP350 addresses the wallet's address decoder (@scure/btc-signer) refuses: witness versions 2 to 16,
 * and version 1 with a program that is not 32 bytes, have no spending rules yet, so coins sent there would
 * be anyone's. Refusing them is the safe reading for a wallet.
 */
const FUTURE_WITNESS = new Set([
  "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
  "BC1SW50QGDZ25J",
  "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
]);

describe("segwit addresses (bitcoin/bips BIP350, BIP173)", () => {
  for (const { address } of vectors.bip350_valid.filter((v) => !FUTURE_WITNESS.has(v.address))) {
    it(`reads ${address}`, () => {
      const network = networkOf(address);
      const request = parsePaymentRequest(address, network);
      expect(request.address).toBe(address.toLowerCase());
      expect(request.network).toBe(network);
      expect(parsePaymentRequest(`bitcoin:${address}`, network).address).toBe(address.toLowerCase());
    });
  }

  for (const { address } of vectors.bip350_valid.filter((v) => FUTURE_WITNESS.has(v.address))) {
    it(`refuses the future witness program ${address}`, () => {
      expect(() => parsePaymentRequest(address, "bitcoin")).toThrow("Invalid payment request");
    });
  }

  for (const { address, reason } of [...vectors.bip350_invalid, ...vectors.bip173_invalid]) {
    it(`refuses ${address} (${reason})`, () => {
      for (const network of ["bitcoin", "testnet"] as const) {
        expect(() => parsePaymentRequest(address, network)).toThrow("Invalid payment request");
      }
    });
  }

  it("refuses a mainnet address on a test network with the networks named", () => {
    const address = vectors.bip350_valid[0]?.address ?? "";
    expect(() => parsePaymentRequest(address, "testnet")).toThrow(
      "Destination is for bitcoin but you're on testnet",
    );
  });
});
