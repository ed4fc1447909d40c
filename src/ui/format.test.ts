import { describe, expect, it } from "vitest";
import { createIntl, createIntlCache } from "@formatjs/intl";
import { formatDateTime, formatFiat, formatSats, relativeTime, truncateMiddle } from "./format";
import { localValues } from "./errors";

const cache = createIntlCache();
const intl = (locale: string) => createIntl({ locale, messages: {} }, cache);

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

describe("formatSats", () => {
  it("groups any bigint exactly, as the language writes numbers", () => {
    expect(formatSats(intl("en"), 2099999997690000n)).toBe("2,099,999,997,690,000");
    expect(formatSats(intl("en"), 0n)).toBe("0");
    expect(formatSats(intl("en"), -1500n)).toBe("-1,500");
    expect(formatSats(intl("de"), 500_000n)).toBe("500.000");
    expect(formatSats(intl("fr"), 500_000n).replace(/\s/g, " ")).toBe("500 000");
  });
});

describe("formatFiat", () => {
  it("writes the exact decimal in the language's currency format", () => {
    expect(formatFiat(intl("en"), "10.00", "EUR", 2)).toBe("€10.00");
    expect(formatFiat(intl("de"), "10.00", "EUR", 2).replace(/\s/g, " ")).toBe("10,00 €");
    expect(formatFiat(intl("en"), "1234567.89", "USD", 2)).toBe("$1,234,567.89");
    expect(formatFiat(intl("ja"), "1500", "JPY", 0)).toMatch(/1,500/);
    // More digits than a float keeps: the string is formatted exactly.
    expect(formatFiat(intl("en"), "92233720368547758.07", "USD", 2)).toBe("$92,233,720,368,547,758.07");
  });
});

describe("formatDateTime", () => {
  it("follows the language", () => {
    const ms = Date.UTC(2026, 10, 24, 18, 58, 54);
    expect(formatDateTime(intl("de"), ms)).toMatch(/24\.11\.2026/);
    expect(formatDateTime(intl("en"), ms)).toMatch(/Nov 24, 2026/);
  });
});

describe("localValues", () => {
  it("groups an error's whole-number placeholders and leaves the rest", () => {
    const de = (n: bigint) => formatSats(intl("de"), n);
    expect(localValues({ amount: "100000", domain: "shop.example", rate: "x1" }, de)).toEqual({
      amount: "100.000",
      domain: "shop.example",
      rate: "x1",
    });
  });
});
