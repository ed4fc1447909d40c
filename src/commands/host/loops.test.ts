import { describe, expect, it } from "vitest";
import { ONCHAIN_SYNC_MS, syncDelay } from "./loops";

describe("the sync loop's back-off", () => {
  it("tries a failing server again sooner, backing off to the usual minute, and resets on success", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(syncDelay)).toEqual([
      ONCHAIN_SYNC_MS,
      5_000,
      10_000,
      20_000,
      40_000,
      ONCHAIN_SYNC_MS,
      ONCHAIN_SYNC_MS,
    ]);
  });
});
