import { base64 } from "@scure/base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WRONG_PASSWORD_TEXT, WrongPassword } from "../src/errors";
import {
  type Envelope,
  openJson,
  openWithPassword,
  sealJson,
  sealWithPassword,
  VAULT_CORRUPT_TEXT,
  VaultCorrupt,
} from "../src/engine/vault";

/** Low iteration counts through the explicit weak-parameters option, so each run takes milliseconds. */
const weakParams = fc.integer({ min: 1, max: 64 }).map((iterations) => ({ iterations, allowWeak: true }));
const password = fc.oneof(
  fc.string({ minLength: 1, maxLength: 24 }),
  fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }),
  fc.string({ minLength: 1, maxLength: 12, unit: "binary" }),
);
const payload = fc.uint8Array({ minLength: 0, maxLength: 300 });
const runs = { numRuns: 40 };

const rejection = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => "opened",
    (e: unknown) => e,
  );

/** Rejected with one of the vault's clear errors: never opened, never a crash. */
const isClearRejection = (e: unknown): boolean =>
  (e instanceof VaultCorrupt && e.message === VAULT_CORRUPT_TEXT) ||
  (e instanceof WrongPassword && e.message === WRONG_PASSWORD_TEXT);

const flipBit = (b64: string, bit: number): string => {
  const bytes = base64.decode(b64);
  const i = bit % (bytes.length * 8);
  bytes[i >> 3]! ^= 1 << (i & 7);
  return base64.encode(bytes);
};

const flipCharBit = (s: string, at: number, bit: number): string => {
  const i = at % s.length;
  return s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ (1 << bit)) + s.slice(i + 1);
};

const copy = (e: Envelope): Envelope => JSON.parse(JSON.stringify(e));

type FlippedField = "ciphertext" | "nonce" | "saltB64" | "checkB64";

/** The envelope with one bit of `field` flipped. */
const flipField = (envelope: Envelope, field: FlippedField, bit: number): Envelope => {
  if (field === "ciphertext") return { ...envelope, ciphertextB64: flipBit(envelope.ciphertextB64, bit) };
  if (field === "nonce")
    return { ...envelope, cipher: { ...envelope.cipher, nonceB64: flipBit(envelope.cipher.nonceB64, bit) } };
  return { ...envelope, kdf: { ...envelope.kdf, [field]: flipBit(envelope.kdf[field], bit) } };
};

/** Seals a payload, flips one bit of one of `fields`, and hands what the open refused with to `check`. */
const eachBitFlip = (fields: FlippedField[], check: (e: unknown) => void) =>
  fc.assert(
    fc.asyncProperty(
      payload,
      password,
      weakParams,
      fc.constantFrom(...fields),
      fc.nat(),
      async (bytes, pw, params, field, bit) => {
        const envelope = copy(await sealWithPassword(bytes, pw, params));
        check(await rejection(openWithPassword(flipField(envelope, field, bit), pw)));
      },
    ),
    runs,
  );

describe("vault properties", () => {
  it("opens what it sealed, for any payload and password", async () => {
    await fc.assert(
      fc.asyncProperty(payload, password, weakParams, async (bytes, pw, params) => {
        const envelope = copy(await sealWithPassword(bytes, pw, params));
        expect(await openWithPassword(envelope, pw)).toEqual(bytes);
      }),
      runs,
    );
  });

  it("round-trips JSON values", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), password, weakParams, async (value, pw, params) => {
        const envelope = copy(await sealJson(value, pw, params));
        expect(await openJson(envelope, pw)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      runs,
    );
  });

  it("stores the KDF parameters and reads them back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2000 }), password, async (iterations, pw) => {
        const envelope = copy(
          await sealWithPassword(new Uint8Array([1, 2, 3]), pw, { iterations, allowWeak: true }),
        );
        expect(envelope.kdf).toMatchObject({ name: "PBKDF2-SHA256", iterations });
        expect(envelope.cipher.name).toBe("AES-256-GCM");
        expect(base64.decode(envelope.kdf.saltB64)).toHaveLength(16);
        expect(base64.decode(envelope.cipher.nonceB64)).toHaveLength(12);
        expect(await openWithPassword(envelope, pw)).toEqual(new Uint8Array([1, 2, 3]));
      }),
      { numRuns: 30 },
    );
  });

  it("rejects a wrong password with the wrong-password error", async () => {
    await fc.assert(
      fc.asyncProperty(payload, password, password, weakParams, async (bytes, right, wrong, params) => {
        // Compared as the vault sees them: NFC-normalised UTF-8 (lone surrogates become U+FFFD).
        fc.pre(
          new TextEncoder().encode(right.normalize("NFC")).join() !==
            new TextEncoder().encode(wrong.normalize("NFC")).join(),
        );
        const envelope = await sealWithPassword(bytes, right, params);
        const e = await rejection(openWithPassword(envelope, wrong));
        expect(e).toBeInstanceOf(WrongPassword);
        expect(e).toMatchObject({
          message: WRONG_PASSWORD_TEXT,
          key: "settings.decrypt.error_wrong_password",
        });
      }),
      runs,
    );
  });

  it("detects any single-bit change of the ciphertext or nonce as damage", () =>
    eachBitFlip(["ciphertext", "nonce"], (e) => {
      expect(e).toBeInstanceOf(VaultCorrupt);
      expect(isClearRejection(e)).toBe(true);
    }));

  it("rejects any single-bit change of the salt or password check", () =>
    eachBitFlip(["saltB64", "checkB64"], (e) => expect(isClearRejection(e)).toBe(true)));

  it("rejects a single-bit change of any header field, as stored", async () => {
    const stringFields = [
      "format",
      "kdf.name",
      "kdf.saltB64",
      "kdf.checkB64",
      "cipher.name",
      "cipher.nonceB64",
    ];
    await fc.assert(
      fc.asyncProperty(
        payload,
        password,
        weakParams,
        fc.constantFrom(...stringFields, "v", "kdf.iterations"),
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        async (bytes, pw, params, field, at, bit) => {
          const envelope = copy(await sealWithPassword(bytes, pw, params));
          const tampered = JSON.parse(JSON.stringify(envelope));
          const [outer, inner] = field.split(".") as [string, string | undefined];
          const holder = inner ? tampered[outer] : tampered;
          const name = inner ?? outer;
          // Numbers: flip one of the low bits (keeps a tampered iteration count small enough to run fast).
          holder[name] =
            typeof holder[name] === "number" ? holder[name] ^ (1 << bit) : flipCharBit(holder[name], at, bit);
          expect(isClearRejection(await rejection(openWithPassword(tampered, pw)))).toBe(true);
        },
      ),
      runs,
    );
  });
});
