import { defineConfig } from "vitest/config";
import { foldVersion } from "./scripts/fold-version.ts";

export default defineConfig({
  // The folds' code, as the app is built with it: a snapshot of folded states names the code that made it.
  define: { __FOLD_VERSION__: JSON.stringify(foldVersion(import.meta.dirname)) },
  test: {
    include: [
      "src/**/*.test.ts",
      "property-tests/**/*.test.ts",
      "harness/**/*.test.ts",
      "services/**/*.test.ts",
    ],
    environment: "node",
    // Sized to the work on two busy cores (key stretches, LDK starts, a world starting), not a quiet machine.
    testTimeout: 120_000,
    // Most files wait on the world (blocks, relays, timeouts the product keeps) more than they compute: four
    // at once keep two cores busy (the whole run took 522 s beside a soak, against 1,385 s two at a time).
    maxWorkers: 4,
    hookTimeout: 180_000,
    setupFiles: ["./src/test-setup.ts"],
  },
});
