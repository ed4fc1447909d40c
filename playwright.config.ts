import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";

const PORT = Number(process.env.E2E_PORT ?? 4173);

/** End-to-end tests in Debian's Chromium against the built wallet and a local regtest world. */
export default defineConfig({
  testDir: "e2e",
  // Sized to the work on two busy cores (page loads, key derivations, a worker's wasm), not a quiet machine;
  // tests that open channels, mine or stretch passwords several times set more.
  timeout: 120_000,
  expect: {
    timeout: 30_000,
    // Screenshots are compared with committed baselines; the tolerance absorbs font anti-aliasing.
    toHaveScreenshot: { maxDiffPixelRatio: 0.02, animations: "disabled", caret: "hide" },
  },
  fullyParallel: true,
  // Three at a time: a test waits on blocks, channels and the world's answers for much of its time (the run
  // took 17.3 min three at a time on two quiet cores, every test passing).
  workers: 3,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "reports/playwright.json" }]],
  globalSetup: "./e2e/global-setup.ts",
  // The on-chain tests see a payment unconfirmed until they mine; every other test that mines a block on
  // the run's one chain waits until they are done.
  projects: [
    { name: "chain alone", testMatch: /onchain\.spec\.ts$/ },
    {
      name: "wallet",
      testIgnore: /onchain\.spec\.ts$/,
      grepInvert: /@lsp-restart/,
      dependencies: ["chain alone"],
      teardown: "lsp restarts",
    },
    // Tests that stop the world's LSP node for a while run once every other is done, alone and one at a
    // time: a payment of a test beside them would find its channel's peer gone.
    { name: "lsp restarts", grep: /@lsp-restart/, workers: 1 },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `npx vite build --logLevel warn && npx vite preview --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    // A production build takes minutes when the machine is busy.
    timeout: 600_000,
    env: { VITE_NETWORK: "regtest" },
  },
});
