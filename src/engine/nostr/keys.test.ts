import { describe, expect, it } from "vitest";
import { npubOf, nsecOf, parseNpub, parseNsec, pubkeyOf, secretHex, seedSecretKey } from "./keys";
import nip06 from "./vectors/nip06.json";

describe(`NIP-06 vectors (${nip06.source})`, () => {
  for (const v of nip06.vectors)
    it(v.mnemonic.split(" ").slice(0, 3).join(" "), () => {
      const secret = seedSecretKey(v.mnemonic);
      expect(secretHex(secret)).toBe(v.private_key);
      expect(nsecOf(secret)).toBe(v.nsec);
      expect(pubkeyOf(secret)).toBe(v.public_key);
      expect(npubOf(v.public_key)).toBe(v.npub);
      expect(secretHex(parseNsec(v.nsec) ?? new Uint8Array())).toBe(v.private_key);
      expect(parseNpub(v.npub)).toBe(v.public_key);
    });
});

const [first] = nip06.vectors;
if (!first) throw new Error("no NIP-06 vectors");

describe("nsec input", () => {
  const good = first.nsec;
  it("accepts an nsec with spaces around it", () => {
    expect(parseNsec(`  ${good}\n`)).not.toBeNull();
  });
  it.each([
    "",
    "nsec1",
    good.slice(0, -1),
    `${good.slice(0, -1)}q`,
    first.npub,
    first.private_key,
    good.toUpperCase(),
  ])("refuses %j", (text) => {
    expect(parseNsec(text)).toBeNull();
  });
});
