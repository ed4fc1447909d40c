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

const lnurlPort = Number(process.env.LNURL_PORT ?? 3003);

/** Waits until `url` answers (`ok` or, with `anyAnswer`, any HTTP answer: the server listens). */
const waitFor = async (url, { tries = 240, headers = {}, anyAnswer = false } = {}) => {
  for (let i = 0; i < tries; i++) {
    try {
      const r = await fetch(url, { headers });
      if (r.ok || anyAnswer) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
};

/**
 * Every part of the world the wallet talks to, each asked as the wallet asks it: a newcomer who opens the
 * address at once meets working ecash, nostr and lightning, not the ones still starting.
 */
const parts = [
  ["Esplora", `${esplora}/blocks/tip/height`],
  ["LSP", `${esplora}/api/v1/info`],
  ["Cashu mint", `${esplora}/cashu/v1/info`],
  ["nostr relay", `${esplora}/nostr`, { headers: { accept: "application/nostr+json" } }],
  ["Plus and lightning addresses", `${esplora}/plus/plans`],
  ["LNURL", `http://127.0.0.1:${lnurlPort}/`, { anyAnswer: true }],
  ["wallet", `http://127.0.0.1:${port}/`],
];

const worldAnswers = async () => {
  for (const [name, url, opts] of parts)
    if (!(await waitFor(url, opts))) {
      console.error(`The ${name} did not answer at ${url}.`);
      return false;
    }
  return true;
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

if (await worldAnswers()) {
  console.log(`\nThe wallet runs on a local regtest chain. Open http://localhost:${port}`);
  console.log(`Fund it: npm run faucet -- <address> [sats]   Mine: npm run mine -- [blocks]\n`);
} else {
  console.error("The wallet or the regtest world did not start.");
  stop(1);
}
