import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { forgetRootKey, prepareRootKey, rootKey, seedOf } from "./mnemonic";

// BIP39's published vector (no passphrase), as Trezor's python-mnemonic lists it for the empty passphrase.
const WORDS = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const SEED =
  "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4";

describe("the words' seed and root", () => {
  it("is the same whether stretched natively before the wallet opens or in JavaScript when first asked", async () => {
    forgetRootKey();
    const inJs = { seed: hex.encode(seedOf(WORDS)), xprv: rootKey(WORDS).privateExtendedKey };
    forgetRootKey();
    await prepareRootKey(WORDS);
    expect({ seed: hex.encode(seedOf(WORDS)), xprv: rootKey(WORDS).privateExtendedKey }).toEqual(inJs);
    expect(inJs.seed).toBe(SEED);
    expect(inJs.xprv).toBe(
      "xprv9s21ZrQH143K3GJpoapnV8SFfukcVBSfeCficPSGfubmSFDxo1kuHnLisriDvSnRRuL2Qrg5ggqHKNVpxR86QEC8w35uxmGoggxtQTPvfUu",
    );
    forgetRootKey();
  });
});
