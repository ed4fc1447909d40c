import { describe, expect, it } from "vitest";
import { searchesProfiles } from "./search-rules";

describe("which queries go to the profile search", () => {
  it("asks for names and words", () => {
    for (const q of [
      "alice",
      "Alice Lovelace",
      "bob@",
      "gracec123",
      "ca",
      "nakamotosatoshi12345678",
      "michaelangelo",
    ])
      expect(searchesProfiles(q, false)).toBe(true);
  });
  it("never sends a payment string, whole or half typed", () => {
    for (const q of [
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5x",
      "lnbcrt50u1pj",
      "LNURL1DP68GURN8GHJ7",
      "lightning:lnbc1",
      "bitcoin:bc1q",
      "1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
      "02c3b844b8104f0c1b15c507774c9ba7fc",
      "fed11qgqrgvnhwden5te0v9k8q",
    ])
      expect(searchesProfiles(q, false)).toBe(false);
    expect(searchesProfiles("alice@example.com", true)).toBe(false);
    expect(searchesProfiles("", false)).toBe(false);
  });
});
