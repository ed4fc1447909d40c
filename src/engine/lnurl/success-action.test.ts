import { createCipheriv } from "node:crypto";
import { base64, hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { isAesActionReadable, openAesSuccessAction } from "./success-action";

/** Sealed as LUD-10's Scala example does (AES/CBC/PKCS5Padding), by Node's own OpenSSL, not by the code under test. */
const seal = (preimage: Uint8Array, iv: Uint8Array, text: string) => {
  const c = createCipheriv("aes-256-cbc", preimage, iv);
  return {
    ciphertext: base64.encode(Buffer.concat([c.update(text, "utf8"), c.final()])),
    iv: base64.encode(iv),
  };
};

const preimage = hex.decode("9af3e334cb53e904f71d394eaab10eb89280d19ec33bc0d7a9983c44e7ec7ca4");
const iv = hex.decode("000102030405060708090a0b0c0d0e0f");

describe("LUD-10 aes success action", () => {
  it("opens with the payment's preimage, whatever the length of the secret", async () => {
    for (const secret of [
      "1234",
      "Your redeem code: ABCD-EFGH-1234",
      "sixteen chars!!!",
      "ünïcödé ⚡ секрет",
    ]) {
      expect(await openAesSuccessAction(seal(preimage, iv, secret), preimage)).toBe(secret);
    }
  });

  it("opens a ciphertext sealed by the openssl command line", async () => {
    // printf "Secret data" | openssl enc -aes-256-cbc -K <preimage> -iv 000102…0f | base64
    const sealed = { ciphertext: "n45/YSc/eJuTaX22XNqPWg==", iv: base64.encode(iv) };
    expect(sealed.iv).toHaveLength(24);
    expect(await openAesSuccessAction(sealed, preimage)).toBe("Secret data");
  });

  it("does not open with another key, and refuses malformed fields", async () => {
    const sealed = seal(preimage, iv, "Secret data");
    const other = new Uint8Array(32).fill(7);
    expect(await openAesSuccessAction(sealed, other)).toBeNull();
    expect(await openAesSuccessAction(sealed, preimage.slice(0, 16))).toBeNull();
    expect(isAesActionReadable(sealed.ciphertext, sealed.iv)).toBe(true);
    expect(isAesActionReadable(sealed.ciphertext, base64.encode(new Uint8Array(12)))).toBe(false);
    expect(isAesActionReadable(base64.encode(new Uint8Array(15)), sealed.iv)).toBe(false);
    expect(isAesActionReadable("not base64!", sealed.iv)).toBe(false);
    expect(isAesActionReadable("A".repeat(4100), sealed.iv)).toBe(false);
  });
});
