// Starts the local regtest world and the wallet on it, prints the address to open, stops both on Ctrl-C.
import { spawn, spawnSync } from "node:child_process";

const port = Number(process.env.PORT ?? 5173);
const esploraPort = Number(process.env.ESPLORA_PORT ?? 3002);
const esplora = `http://127.0.0.1:${esploraPort}`;
const env = {
  ...process.env,
  VITE_NETWORK: "regtest",
  VITE_ESPLORA: esplora,
  ESPLORA_PORT: String(esploraPort),
};

console.log("Building the wallet…");
const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit", env });
if (build.status !== 0) process.exit(build.status ?? 1);

const children = [
  spawn("npx", ["tsx", "harness/main.ts"], { stdio: "inherit", env, detached: true }),
  spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort", "--logLevel", "warn"], {
    stdio: "inherit",
    env,
    detached: true,
  }),
];

const waitFor = async (url, tries = 120) => {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
};

let stopping = false;
const stop = (code = 0) => {
  if (stopping) return;
  stopping = true;
  // Each child runs in its own process group, so the servers under npx stop with it.
  for (const c of children)
    if (c.exitCode === null && c.pid) {
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  setTimeout(() => process.exit(code), 500);
};
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
for (const c of children) c.on("exit", (code) => stop(code ?? 0));

if ((await waitFor(`${esplora}/blocks/tip/height`)) && (await waitFor(`http://127.0.0.1:${port}/`))) {
  console.log(`\nThe wallet runs on a local regtest chain. Open http://localhost:${port}`);
  console.log(`Fund it: npm run faucet -- <address> [sats]   Mine: npm run mine -- [blocks]\n`);
} else {
  console.error("The wallet or the regtest world did not start.");
  stop(1);
}
