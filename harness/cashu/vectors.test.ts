/**
 * The Cashu test vectors of the NUTs (data files in `vectors/`, each naming its source) against the
 * primitives the world's mints sign with and wallets check with: hash_to_curve and blind signatures
 * (NUT-00), keyset ids (NUT-02), DLEQ proofs with their deterministic nonce (NUT-12) and deterministic
 * secrets (NUT-13). Then the world's own keysets against their ids.
 */
import {
  blindMessage,
  createBlindSignature,
  createDLEQProof,
  deriveBlindingFactor,
  deriveKeysetId,
  deriveSecret,
  getKeysetIdInt,
  hash_e,
  hashToCurve,
  Keyset,
  pointFromHex,
  verifyDLEQProof,
  verifyDLEQProof_reblind,
} from "@cashu/cashu-ts";
import { hex, utf8 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { deriveMintKeys, inputFee, powersOfTwo, proofY, uuidV7 } from "./mint";
import nut00 from "./vectors/nut00.json";
import nut02 from "./vectors/nut02.json";
import nut12 from "./vectors/nut12.json";
import nut13 from "./vectors/nut13.json";

const big = (h: string) => BigInt(`0x${h}`);

describe("NUT-00 vectors", () => {
  it("hashes messages to the curve", () => {
    for (const v of nut00.hash_to_curve) expect(hashToCurve(hex.decode(v.message)).toHex(true)).toBe(v.point);
  });
  it("blinds secrets", () => {
    for (const v of nut00.blinded_messages)
      expect(blindMessage(hex.decode(v.x), big(v.r)).B_.toHex(true)).toBe(v.B_);
  });
  it("signs blinded messages", () => {
    for (const v of nut00.blind_signatures)
      expect(createBlindSignature(pointFromHex(v.B_), hex.decode(v.k), "00").C_.toHex(true)).toBe(v.C_);
  });
});

describe("NUT-02 vectors", () => {
  it("derives keyset ids of version 00 and 01", () => {
    for (const v of nut02.v1) expect(deriveKeysetId(v.keys, { versionByte: 0 })).toBe(v.id);
    for (const v of nut02.v2)
      expect(
        deriveKeysetId(v.keys, {
          versionByte: 1,
          unit: v.unit,
          input_fee_ppk: v.input_fee_ppk,
          expiry: v.final_expiry,
        }),
      ).toBe(v.id);
  });
});

describe("NUT-12 vectors", () => {
  it("hashes the DLEQ challenge", () => {
    const { R1, R2, K, C_, hash } = nut12.hash_e;
    expect(hex.encode(hash_e([R1, R2, K, C_].map(pointFromHex)))).toBe(hash);
  });
  it("makes the DLEQ proof the mint attaches, with its deterministic nonce", () => {
    const v = nut12.deterministic_nonce;
    const B_ = pointFromHex(v.B_);
    const a = hex.decode(v.a);
    expect(createBlindSignature(B_, a, "00").C_.toHex(true)).toBe(v.C_);
    const dleq = createDLEQProof(B_, a);
    expect({ e: hex.encode(dleq.e), s: hex.encode(dleq.s) }).toEqual({ e: v.e, s: v.s });
    expect(verifyDLEQProof(dleq, B_, pointFromHex(v.C_), pointFromHex(v.A))).toBe(true);
  });
  it("verifies the DLEQ proof of a blind signature, and refuses a changed one", () => {
    const { A, B_, signature } = nut12.blind_signature;
    const dleq = { e: hex.decode(signature.dleq.e), s: hex.decode(signature.dleq.s) };
    const check = (d: typeof dleq) =>
      verifyDLEQProof(d, pointFromHex(B_), pointFromHex(signature.C_), pointFromHex(A));
    expect(check(dleq)).toBe(true);
    const s = dleq.s.slice();
    s[31]! ^= 1;
    expect(check({ ...dleq, s })).toBe(false);
  });
  it("verifies the DLEQ proof carried by a proof (re-blinded with r)", () => {
    const { A, proof } = nut12.proof;
    const dleq = { e: hex.decode(proof.dleq.e), s: hex.decode(proof.dleq.s), r: big(proof.dleq.r) };
    expect(
      verifyDLEQProof_reblind(utf8.decode(proof.secret), dleq, pointFromHex(proof.C), pointFromHex(A)),
    ).toBe(true);
    expect(
      verifyDLEQProof_reblind(utf8.decode(`${proof.secret}0`), dleq, pointFromHex(proof.C), pointFromHex(A)),
    ).toBe(false);
  });
});

describe("NUT-13 vectors", () => {
  const seed = mnemonicToSeedSync(nut13.mnemonic);
  it("reads a version 00 keyset id as an integer", () => {
    expect(getKeysetIdInt(nut13.v1.keyset_id)).toBe(BigInt(nut13.v1.keyset_id_int));
  });
  for (const version of ["v1", "v2"] as const) {
    it(`derives the secrets and blinding factors of keyset ids ${version === "v1" ? "00" : "01"}`, () => {
      const v = nut13[version];
      v.secrets.forEach((secret, counter) => {
        expect(hex.encode(deriveSecret(seed, v.keyset_id, counter))).toBe(secret);
        expect(hex.encode(deriveBlindingFactor(seed, v.keyset_id, counter))).toBe(v.r[counter]);
      });
    });
  }
});

describe("the world's mint keys", () => {
  it("are the same every run, and their id is the NUT-02 id of the keys served", () => {
    const seed = new Uint8Array(32).fill(7);
    const a = deriveMintKeys(seed);
    expect(deriveMintKeys(seed).keysetId).toBe(a.keysetId);
    expect(a.keysetId).toMatch(/^01[0-9a-f]{64}$/);
    const keys = Object.fromEntries(Object.entries(a.pubKeys).map(([k, v]) => [k, hex.encode(v)]));
    expect(Object.keys(keys).map(Number)).toEqual(powersOfTwo(2 ** 32 - 1));
    expect(Keyset.verifyKeysetId({ id: a.keysetId, unit: "sat", keys, input_fee_ppk: 0 })).toBe(true);
    const withFee = deriveMintKeys(seed, 100);
    expect(withFee.keysetId).not.toBe(a.keysetId);
    expect(inputFee(3, 100)).toBe(1);
    expect(inputFee(11, 100)).toBe(2);
    expect(inputFee(5, 0)).toBe(0);
  });
  it("key a proof by Y = hash_to_curve(secret), split amounts into powers of two, and quote by UUID v7", () => {
    expect(proofY("test")).toBe(hashToCurve(utf8.decode("test")).toHex(true));
    expect(powersOfTwo(900)).toEqual([4, 128, 256, 512]);
    expect(powersOfTwo(0)).toEqual([]);
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
