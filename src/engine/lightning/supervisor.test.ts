import { describe, expect, it } from "vitest";
import { backoffMs, FIRST_BACKOFF_MS, MAX_BACKOFF_MS } from "./supervisor";

describe("the connection supervisor's back-off", () => {
  it("starts short, doubles on each failure and never waits more than five seconds", () => {
    expect(backoffMs(1)).toBe(FIRST_BACKOFF_MS);
    expect(backoffMs(2)).toBe(2 * FIRST_BACKOFF_MS);
    for (let n = 1; n < 60; n++) {
      expect(backoffMs(n + 1)).toBeGreaterThanOrEqual(backoffMs(n));
      expect(backoffMs(n)).toBeLessThanOrEqual(MAX_BACKOFF_MS);
    }
    expect(MAX_BACKOFF_MS).toBeLessThanOrEqual(5_000);
    expect(backoffMs(40)).toBe(MAX_BACKOFF_MS);
  });
});
