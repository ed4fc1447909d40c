// Prints only the import figures of `npm run bench`: the state file of a 100,000-event log, imported in Node
// and then in Chromium from the emergency kit. Not a test: nothing here passes or fails on time.
import { spawnSync } from "node:child_process";
import { initCrdtNode } from "../src/crdt/node";
import { benchImportInChromium } from "./import";
import { benchReplay } from "./replay";

await initCrdtNode();
if (!process.argv.includes("--no-build")) {
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
    stdio: "inherit",
    env: { ...process.env, VITE_NETWORK: "regtest" },
  });
  if (build.status !== 0) process.exit(1);
}
const stateFile = await benchReplay();
await benchImportInChromium(stateFile.json, stateFile.password, stateFile.events);
