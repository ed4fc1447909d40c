import { hex } from "@scure/base";
import { WIF } from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { rootKey } from "../keys/mnemonic";
import { Bip84Account } from "./account";
import vectors from "./vectors/bip84.json";

describe("BIP84 account (bitcoin/bips bip-0084 test vectors)", () => {
  const account = new Bip84Account(rootKey(vectors.mnemonic), "bitcoin");

  it("gives the account's zpub and zprv", () => {
    expect(account.extendedPublicKey).toBe(vectors.account.xpub);
    expect(account.extendedPrivateKey).toBe(vectors.account.xprv);
  });

  for (const v of vectors.addresses) {
    it(`derives ${v.path}`, () => {
      const keychain = v.keychain as "external" | "internal";
      expect(account.address(keychain, v.index).address).toBe(v.address);
      expect(hex.encode(account.publicKey(keychain, v.index))).toBe(v.pubkey);
      expect(WIF().encode(account.privateKey(keychain, v.index))).toBe(v.privkey);
      expect(account.owner(account.address(keychain, v.index).script)?.index).toBe(v.index);
    });
  }

  it("uses coin type 1 and the network's prefix on test networks", () => {
    const regtest = new Bip84Account(rootKey(vectors.mnemonic), "regtest");
    const testnet = new Bip84Account(rootKey(vectors.mnemonic), "testnet");
    expect(regtest.address("external", 0).address).toMatch(/^bcrt1q/);
    expect(testnet.address("external", 0).address).toMatch(/^tb1q/);
    expect(testnet.extendedPublicKey).toMatch(/^vpub/);
    expect(regtest.address("external", 0).script).toBe(testnet.address("external", 0).script);
    expect(regtest.address("external", 0).script).not.toBe(account.address("external", 0).script);
  });
});
