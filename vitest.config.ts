import { defineConfig } from "vitest/config";

export default defineConfig({
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
    // Most files wait on the world (blocks, relays, timeouts the product keeps) more than they compute: two
    // at once on two cores, as the end-to-end run does.
    maxWorkers: 2,
    hookTimeout: 180_000,
    setupFiles: ["./src/test-setup.ts"],
  },
});
