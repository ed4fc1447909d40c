// Runs every check in order and closes with one line that counts passed and failed tests.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

import { rmSync } from "node:fs";
import { ensureFronts } from "./fronts.mjs";
import { ensurePostgres } from "./postgres.mjs";
rmSync("reports", { recursive: true, force: true });
mkdirSync("reports", { recursive: true });
const steps = [
  ["type-check", "npx", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
  ["lint", "npx", ["biome", "check", "."]],
  ["message catalogues", "node", ["scripts/check-locales.mjs"]],
  ["layers", "npx", ["depcruise", "src", "services", "--config", ".dependency-cruiser.cjs"]],
  [
    "unit and property tests",
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=reports/vitest.json"],
  ],
  ["end-to-end tests", "npx", ["playwright", "test"]],
];

// The storage server's conformance suite runs on PostgreSQL too where the machine can run it.
const postgres = ensurePostgres();
if (postgres) process.env.STORAGE_POSTGRES_URL = postgres;
ensureFronts();

let failedStep = null;
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  if (r.status !== 0) {
    failedStep = name;
    console.error(`\n${name} failed (exit ${r.status})`);
    break;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync("reports/vitest.json")) {
  const v = JSON.parse(readFileSync("reports/vitest.json", "utf8"));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
}
if (existsSync("reports/playwright.json")) {
  const p = JSON.parse(readFileSync("reports/playwright.json", "utf8"));
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0) * 0;
  skipped += p.stats?.skipped ?? 0;
}
if (failedStep && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStep ? 1 : 0);
