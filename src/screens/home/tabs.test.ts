import { describe, expect, it } from "vitest";
import { nextTab } from "./tabs";

describe("nextTab", () => {
  const tabs = ["me", "friends", "requests"] as const;
  it("moves with the arrows, wrapping around, and to the ends with Home and End", () => {
    expect(nextTab(tabs, "me", "ArrowRight")).toBe("friends");
    expect(nextTab(tabs, "requests", "ArrowRight")).toBe("me");
    expect(nextTab(tabs, "me", "ArrowLeft")).toBe("requests");
    expect(nextTab(tabs, "friends", "Home")).toBe("me");
    expect(nextTab(tabs, "friends", "End")).toBe("requests");
  });
  it("ignores other keys", () => {
    expect(nextTab(tabs, "me", "Tab")).toBeNull();
    expect(nextTab(tabs, "me", "Enter")).toBeNull();
  });
});
