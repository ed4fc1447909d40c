import { describe, expect, it } from "vitest";
import { APP_TITLE, titleFor } from "./RouteFocus";

describe("titleFor", () => {
  it("names the page first, then the wallet", () => {
    expect(titleFor("Send bitcoin")).toBe(`Send bitcoin · ${APP_TITLE}`);
    expect(titleFor("  Bitcoin\n  empfangen ")).toBe(`Bitcoin empfangen · ${APP_TITLE}`);
  });
  it("is the wallet's name alone while a page has no heading", () => {
    expect(titleFor(null)).toBe(APP_TITLE);
    expect(titleFor("   ")).toBe(APP_TITLE);
  });
});
