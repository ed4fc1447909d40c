import { describe, expect, it } from "vitest";
import { backTarget } from "./BackControl";

describe("backTarget", () => {
  it("prefers the previous location, then the parent path, then home", () => {
    expect(backTarget("/settings/currency", "/receive")).toBe("/receive");
    expect(backTarget("/settings/currency", null)).toBe("/settings");
    expect(backTarget("/settings", undefined)).toBe("/");
    expect(backTarget("/", null)).toBe("/");
  });
});
