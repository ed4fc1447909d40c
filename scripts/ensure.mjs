// Installs whatever a fresh machine is missing: npm packages, and (with --browser) Debian's Chromium.
import { execSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";

const run = (cmd) => execSync(cmd, { stdio: "inherit" });

function packagesUpToDate() {
  const marker = "node_modules/.package-lock.json";
  if (!existsSync(marker)) return false;
  const lockTime = existsSync("package-lock.json") ? statSync("package-lock.json").mtimeMs : 0;
  const pkgTime = statSync("package.json").mtimeMs;
  return statSync(marker).mtimeMs >= Math.max(lockTime, pkgTime) - 1000;
}

if (!packagesUpToDate()) {
  console.log("Installing npm packages…");
  run(existsSync("package-lock.json") ? "npm ci --no-audit --no-fund" : "npm install --no-audit --no-fund");
}

if (process.argv.includes("--browser") && !existsSync("/usr/bin/chromium")) {
  console.log("Installing Chromium from Debian packages for the end-to-end tests…");
  const sudo = process.getuid?.() === 0 ? "" : "sudo ";
  run(`${sudo}apt-get update -qq`);
  run(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`);
}

const version = JSON.parse(readFileSync("package.json", "utf8")).version;
process.env.WALLET_VERSION = version;
