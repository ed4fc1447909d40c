import { describe, expect, it } from "vitest";
import { InvalidInput, Unexpected, WRONG_PASSWORD_TEXT, WrongPassword } from "../../errors";
import {
  createVaultKey,
  DEFAULT_KDF_PARAMS,
  deriveVaultKey,
  type Envelope,
  MAX_ITERATIONS,
  MIN_ITERATIONS,
  openJson,
  openJsonWithKey,
  openWithKey,
  openWithPassword,
  sealJson,
  sealJsonWithKey,
  sealWithKey,
  sealWithPassword,
  VAULT_CORRUPT_TEXT,
  VaultCorrupt,
} from "./index";

const fast = { iterations: 10, allowWeak: true } as const;
const utf8 = (s: string) => new TextEncoder().encode(s);
const rejection = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

describe("vault defaults", () => {
  it("seals with at least 600,000 PBKDF2 iterations and opens again", async () => {
    expect(DEFAULT_KDF_PARAMS.iterations).toBeGreaterThanOrEqual(600_000);
    const secret = "abandon ability able about above absent absorb abstract absurd abuse access accident";
    const envelope = await sealWithPassword(utf8(secret), "correct horse");
    expect(envelope.kdf.iterations).toBe(MIN_ITERATIONS);
    expect(envelope.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    expect(new TextDecoder().decode(await openWithPassword(envelope, "correct horse"))).toBe(secret);

    const text = JSON.stringify(envelope);
    const plain = utf8(secret);
    for (const form of [secret, "abandon", hex(plain), Buffer.from(plain).toString("base64")])
      expect(text).not.toContain(form);
    expect(Object.keys(envelope).sort()).toEqual(["cipher", "ciphertextB64", "format", "kdf", "v"]);
  });

  it("refuses weak parameters unless explicitly allowed", async () => {
    const weak = await rejection(sealWithPassword(utf8("x"), "pw", { iterations: 1000 }));
    expect(weak).toBeInstanceOf(Unexpected);
    const allowed = await sealWithPassword(utf8("x"), "pw", { iterations: 1000, allowWeak: true });
    expect(allowed.kdf.iterations).toBe(1000);
    for (const iterations of [0, -1, 1.5, Number.NaN, MAX_ITERATIONS + 1])
      expect(
        await rejection(sealWithPassword(utf8("x"), "pw", { iterations, allowWeak: true })),
      ).toBeInstanceOf(Unexpected);
  });

  it("refuses to seal with an empty password", async () => {
    expect(await rejection(sealWithPassword(utf8("x"), "", fast))).toBeInstanceOf(InvalidInput);
  });
});

describe("vault errors", () => {
  it("a wrong password gives the catalogue's wrong-password error", async () => {
    const envelope = await sealJson({ a: 1 }, "right", fast);
    for (const password of ["wrong", "", "Right", "right "]) {
      const e = await rejection(openJson(envelope, password));
      expect(e).toBeInstanceOf(WrongPassword);
      expect(e).toMatchObject({ message: WRONG_PASSWORD_TEXT, key: "settings.decrypt.error_wrong_password" });
      expect(WRONG_PASSWORD_TEXT).toBe("Incorrect password entered.");
    }
  });

  it("malformed envelopes give VaultCorrupt", async () => {
    const good = await sealWithPassword(utf8("payload"), "pw", fast);
    const cases: unknown[] = [
      null,
      undefined,
      "vault",
      42,
      [],
      JSON.stringify(good),
      { ...good, format: "other" },
      { ...good, v: 2 },
      { ...good, v: "1" },
      { ...good, kdf: undefined },
      { ...good, kdf: { ...good.kdf, name: "scrypt" } },
      { ...good, kdf: { ...good.kdf, iterations: 0 } },
      { ...good, kdf: { ...good.kdf, iterations: MAX_ITERATIONS + 1 } },
      { ...good, kdf: { ...good.kdf, iterations: "10" } },
      { ...good, kdf: { ...good.kdf, saltB64: "!!!" } },
      { ...good, kdf: { ...good.kdf, saltB64: "AAAA" } },
      { ...good, kdf: { ...good.kdf, checkB64: undefined } },
      { ...good, cipher: { name: "AES-256-CBC", nonceB64: good.cipher.nonceB64 } },
      { ...good, cipher: { ...good.cipher, nonceB64: `${good.cipher.nonceB64} ` } },
      { ...good, ciphertextB64: undefined },
      { ...good, ciphertextB64: "AAAA" },
      { ...good, ciphertextB64: good.ciphertextB64.slice(0, -4) },
    ];
    for (const input of cases) {
      const e = await rejection(openWithPassword(input, "pw"));
      expect(e, JSON.stringify(input) ?? String(input)).toBeInstanceOf(VaultCorrupt);
      expect((e as VaultCorrupt).message).toBe(VAULT_CORRUPT_TEXT);
    }
  });

  it("a value that is not JSON is refused before sealing", async () => {
    expect(await rejection(sealJson({ sats: 1n }, "pw", fast))).toBeInstanceOf(Unexpected);
    expect(await rejection(sealJson(undefined, "pw", fast))).toBeInstanceOf(Unexpected);
  });
});

describe("vault keys", () => {
  it("one unlock seals and opens many blobs", async () => {
    const key = await createVaultKey("pw", fast);
    const blobs = await Promise.all([1, 2, 3].map((n) => sealJsonWithKey(key, { n })));
    expect(new Set(blobs.map((b) => b.cipher.nonceB64)).size).toBe(3);
    for (const [i, blob] of blobs.entries()) {
      expect(blob.kdf).toEqual(key.kdf);
      expect(await openJsonWithKey(key, blob)).toEqual({ n: i + 1 });
      expect(await openJson(blob, "pw")).toEqual({ n: i + 1 });
    }
    const again = await deriveVaultKey("pw", blobs[0]);
    expect(await openJsonWithKey(again, blobs[2])).toEqual({ n: 3 });
    expect(await rejection(deriveVaultKey("nope", blobs[0]))).toBeInstanceOf(WrongPassword);
  });

  it("a blob sealed under another key is refused with WrongPassword", async () => {
    const [a, b] = await Promise.all([createVaultKey("pw", fast), createVaultKey("pw", fast)]);
    const blob = await sealWithKey(a, utf8("secret"));
    expect(await rejection(openWithKey(b, blob))).toBeInstanceOf(WrongPassword);
  });

  it("passwords are compared after NFC normalisation", async () => {
    const composed = "caf\u00e9";
    const decomposed = "cafe\u0301";
    const envelope: Envelope = await sealJson("x", composed, fast);
    expect(await openJson(envelope, decomposed)).toBe("x");
  });
});
