/**
 * The restore's NUT-13 derivation (derive.ts) is byte for byte cashu-ts's: NUT-13's published vectors,
 * then cashu-ts's own output for any seed, keyset and counter, for BIP32 (version-0) and HMAC-SHA256
 * (version-1) keyset ids. A wrong secret or blinding factor would lose the owner's ecash on restore.
 */
import { deriveSecretAndBlindingFactor } from "@cashu/cashu-ts";
import { bytesToHex } from "@noble/curves/utils.js";
import { mnemonicToSeedSync } from "@scure/bip39";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nut13Deriver } from "./derive";

// NUT-13's test vectors (tests/13-tests.md in cashubtc/nuts): version 1, keyset 009a1f293253e41e.
const vectors = {
  mnemonic: "half depart obvious quality work element tank gorilla view sugar picture humble",
  keysetId: "009a1f293253e41e",
  secrets: [
    "485875df74771877439ac06339e284c3acfcd9be7abf3bc20b516faeadfe77ae",
    "8f2b39e8e594a4056eb1e6dbb4b0c38ef13b1b2c751f64f810ec04ee35b77270",
    "bc628c79accd2364fd31511216a0fab62afd4a18ff77a20deded7b858c9860c8",
    "59284fd1650ea9fa17db2b3acf59ecd0f2d52ec3261dd4152785813ff27a33bf",
    "576c23393a8b31cc8da6688d9c9a96394ec74b40fdaf1f693a6bb84284334ea0",
  ],
  rs: [
    "ad00d431add9c673e843d4c2bf9a778a5f402b985b8da2d5550bf39cda41d679",
    "967d5232515e10b81ff226ecf5a9e2e2aff92d66ebc3edf0987eb56357fd6248",
    "b20f47bb6ae083659f3aa986bfa0435c55c6d93f687d51a01f26862d9b9a4899",
    "fb5fca398eb0b1deb955a2988b5ac77d32956155f1c002a373535211a2dfdc29",
    "5f09bfbfe27c439a597719321e061e2e40aad4a36768bb2bcc3de547c9644bf9",
  ],
};

const hex = (d: { secret: Uint8Array; blindingFactor: Uint8Array }) => ({
  secret: bytesToHex(d.secret),
  r: bytesToHex(d.blindingFactor),
});

const seedArb = fc.uint8Array({ minLength: 64, maxLength: 64 });
const v0Id = fc.uint8Array({ minLength: 7, maxLength: 7 }).map((b) => `00${bytesToHex(b)}`);
const v1Id = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `01${bytesToHex(b)}`);
const counterArb = fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }));

describe("NUT-13 derivation for a restore", () => {
  it("gives NUT-13's published secrets and blinding factors", () => {
    const derive = nut13Deriver(mnemonicToSeedSync(vectors.mnemonic), vectors.keysetId);
    vectors.secrets.forEach((secret, counter) => {
      expect(hex(derive(counter))).toEqual({ secret, r: vectors.rs[counter] });
    });
  });

  it("is cashu-ts's derivation, counter after counter, for BIP32 and HMAC keyset ids", () => {
    const seed = mnemonicToSeedSync(vectors.mnemonic);
    for (const id of [vectors.keysetId, "00ad268c4d1f5826", `01${"ab".repeat(32)}`]) {
      const derive = nut13Deriver(seed, id);
      for (let counter = 0; counter < 120; counter++)
        expect(hex(derive(counter))).toEqual(hex(deriveSecretAndBlindingFactor(seed, id, counter)));
    }
  });

  it("is cashu-ts's derivation for any seed, keyset and counter", () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.oneof(v0Id, v1Id),
        fc.array(counterArb, { minLength: 1, maxLength: 4 }),
        (seed, id, cs) => {
          const derive = nut13Deriver(seed, id);
          for (const c of cs) expect(hex(derive(c))).toEqual(hex(deriveSecretAndBlindingFactor(seed, id, c)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("refuses a counter BIP32 cannot take, as cashu-ts does", () => {
    const derive = nut13Deriver(new Uint8Array(64).fill(1), vectors.keysetId);
    for (const c of [-1, 1.5, 2 ** 31]) {
      expect(() => derive(c)).toThrow(/Counter/);
      expect(() => deriveSecretAndBlindingFactor(new Uint8Array(64).fill(1), vectors.keysetId, c)).toThrow(
        /Counter/,
      );
    }
  });
});
