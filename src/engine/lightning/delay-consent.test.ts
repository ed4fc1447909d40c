import { describe, expect, it } from "vitest";
import { MIN_TO_SELF_DELAY, WALLET_TO_SELF_DELAY } from "./delay";
import { acceptable, delayDecision, delayFor } from "./delay-consent";

const LSP = `02${"a".repeat(64)}`;
const OTHER = `03${"b".repeat(64)}`;

describe("the owner's consent to an LSP's shorter safety delay", () => {
  it("asks two weeks of any LSP the owner accepted nothing for", () => {
    expect(delayFor(new Map(), LSP)).toBe(WALLET_TO_SELF_DELAY);
    expect(delayFor(new Map(), null)).toBe(WALLET_TO_SELF_DELAY);
  });

  it("asks the accepted delay of that LSP only", () => {
    const consents = new Map([[LSP, 1008]]);
    expect(delayFor(consents, LSP)).toBe(1008);
    expect(delayFor(consents, OTHER)).toBe(WALLET_TO_SELF_DELAY);
    expect(delayFor(consents, null)).toBe(WALLET_TO_SELF_DELAY);
  });

  it("never asks a delay below the floor, whatever the log says", () => {
    expect(delayFor(new Map([[LSP, MIN_TO_SELF_DELAY - 1]]), LSP)).toBe(WALLET_TO_SELF_DELAY);
    expect(acceptable(MIN_TO_SELF_DELAY - 1)).toBe(false);
    expect(acceptable(MIN_TO_SELF_DELAY)).toBe(true);
    expect(acceptable(1008.5)).toBe(false);
    // Two weeks (or more) needs no consent.
    expect(acceptable(WALLET_TO_SELF_DELAY)).toBe(false);
  });

  it("asks the owner again for an offer shorter than the delay accepted, and refuses one below the floor", () => {
    expect(delayDecision(WALLET_TO_SELF_DELAY, 2016)).toBe("allowed");
    expect(delayDecision(WALLET_TO_SELF_DELAY, 1008)).toBe("ask_owner");
    // Once 1,008 is accepted, an offer of 1,008 or more goes ahead; 504 asks again.
    expect(delayDecision(1008, 1008)).toBe("allowed");
    expect(delayDecision(1008, 504)).toBe("ask_owner");
    expect(delayDecision(1008, MIN_TO_SELF_DELAY - 1)).toBe("too_short");
  });
});
