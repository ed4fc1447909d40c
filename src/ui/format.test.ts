import { describe, expect, it } from "vitest";
import { groupSats, relativeTime, truncateMiddle } from "./format";

describe("relativeTime", () => {
  const now = 1_800_000_000;
  it("counts seconds, minutes, hours and days, then shows the date", () => {
    expect(relativeTime(now - 5, now, "en")).toBe("5 seconds ago");
    expect(relativeTime(now - 120, now, "en")).toBe("2 minutes ago");
    expect(relativeTime(now - 7200, now, "en")).toBe("2 hours ago");
    expect(relativeTime(now - 3 * 86400, now, "en")).toBe("3 days ago");
    expect(relativeTime(now - 8 * 86400, now, "en")).toMatch(/^\d\d\/\d\d\/\d{4}$/);
  });
});

describe("truncateMiddle", () => {
  it("keeps short text and shortens long text to its last 8", () => {
    expect(truncateMiddle("a".repeat(32))).toBe("a".repeat(32));
    const long = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    expect(truncateMiddle(long)).toBe("bcrt1qw5…7kygt080");
  });
});

describe("groupSats", () => {
  it("groups any bigint exactly", () => {
    expect(groupSats(2099999997690000n, "en")).toBe("2,099,999,997,690,000");
    expect(groupSats(0n, "en")).toBe("0");
    expect(groupSats(-1500n, "en")).toBe("-1,500");
  });
});
