import { hex } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import fc from "fast-check";
import { nip19 } from "nostr-tools";
import { describe, expect, it } from "vitest";
import { connectionSecretsOf } from "../src/commands/wallet/feedback";
import { secretsOfWords } from "../src/engine/keys/held-secrets";
import { REDACTED, redactLines } from "../src/security/redact";

/** A secret as it might be written: as is, upper-case or lower-case. */
const cased = (s: string) => fc.constantFrom(s, s.toUpperCase(), s.toLowerCase());

/** Harmless log text around the secrets: anything, including letters glued to a secret. */
const noise = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", " ", ": ", "=", '"', "seed=", "abc", "0x", "\n", "payment preimage "),
);

describe("redacted logs", () => {
  it("never contain a secret the wallet holds", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 3 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.nat(),
        (entropy, preimageBytes, otherKey, pick) => {
          const mnemonic = entropyToMnemonic(entropy, wordlist);
          const preimages = preimageBytes.map((b) => hex.encode(b));
          const held = secretsOfWords(mnemonic, [
            ...preimages,
            ...connectionSecretsOf(mnemonic, [1000, 1001]),
          ]);
          // Secrets of other wallets in the shapes any wallet's secrets take.
          const foreign = [
            nip19.nsecEncode(otherKey),
            HDKey.fromMasterSeed(otherKey).privateExtendedKey,
            HDKey.fromMasterSeed(otherKey, { private: 0x04358394, public: 0x043587cf }).privateExtendedKey,
          ];
          const pieces = [...held.strings, ...held.words, ...foreign];
          const line = fc.array(
            fc.oneof(noise, fc.constantFrom(...pieces).chain(cased), fc.constant(held.words.join(" "))),
            { minLength: 1, maxLength: 12 },
          );
          const lines = fc.sample(
            fc.array(
              line.map((p) => p.join("")),
              { minLength: 1, maxLength: 6 },
            ),
            {
              numRuns: 1,
              seed: pick,
            },
          )[0]!;
          const out = redactLines(lines, held).join("\n");
          const lower = out.toLowerCase();
          for (const s of [...held.strings, ...foreign]) expect(lower).not.toContain(s.toLowerCase());
          const tokens = new Set(lower.split(/[^a-z]+/));
          for (const w of held.words) expect(tokens.has(w)).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps a line that carries no secret as it was", () => {
    const held = secretsOfWords(entropyToMnemonic(new Uint8Array(16).fill(7), wordlist));
    const line = "INFO 12:00 channel 0a1b ready, 5000 sats outbound";
    const clean = held.words.some((w) =>
      line
        .toLowerCase()
        .split(/[^a-z]+/)
        .includes(w),
    );
    expect(redactLines([line], held)).toEqual([clean ? expect.any(String) : line]);
    expect(redactLines([`seed: ${held.words.join(" ")}`], held)[0]).toBe(`seed: ${REDACTED}`);
  });
});
