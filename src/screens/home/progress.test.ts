import { describe, expect, it } from "vitest";
import { HOME_PROGRESS_MAX, homeProgress } from "./progress";

describe("the loading bar on home", () => {
  it("counts the boot stages, then the lightning node's, in one bar", () => {
    expect(HOME_PROGRESS_MAX).toBe(8);
    expect(homeProgress("downloading", undefined)).toEqual({
      value: 2,
      max: 8,
      key: "boot.stage.downloading",
    });
    expect(homeProgress("setup", { lightning: "starting", lightning_stage: "restoring" })).toMatchObject({
      value: 4,
      key: "boot.stage.setup",
    });
    const starting = (lightning_stage: "loading" | "restoring" | "syncing" | null) =>
      homeProgress("done", { lightning: "starting", lightning_stage });
    expect(starting("loading")).toEqual({ value: 5, max: 8, key: "home.lightning_stage.loading" });
    expect(starting("restoring")).toEqual({ value: 6, max: 8, key: "home.lightning_stage.restoring" });
    expect(starting("syncing")).toEqual({ value: 7, max: 8, key: "home.lightning_stage.syncing" });
    // Live state from before the stages were known reads as the first one.
    expect(starting(null)).toMatchObject({ value: 5, key: "home.lightning_stage.loading" });
  });

  it("goes away once the node runs, failed or is kept off", () => {
    for (const lightning of ["ready", "failed", "safe_mode", "off"] as const)
      expect(homeProgress("done", { lightning, lightning_stage: null })).toBeNull();
    expect(homeProgress("done", undefined)).toBeNull();
  });
});
