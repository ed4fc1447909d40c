// Installs whatever a fresh machine is missing: npm packages, and (with --browser) Debian's Chromium.
import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const run = (cmd) => execSync(cmd, { stdio: "inherit" });

/**
 * The installed packages match the lockfile: each package it names is installed at its version (an optional
 * one may be absent, as npm leaves out what this platform cannot use). Compared by content, not by file
 * times, so a checkout or an editor touching package.json does not empty node_modules for a reinstall.
 */
function packagesUpToDate() {
  const installed = "node_modules/.package-lock.json";
  if (!existsSync(installed) || !existsSync("package-lock.json")) return false;
  const wanted = JSON.parse(readFileSync("package-lock.json", "utf8"));
  const have = JSON.parse(readFileSync(installed, "utf8")).packages ?? {};
  const declared = JSON.parse(readFileSync("package.json", "utf8"));
  const root = wanted.packages?.[""] ?? {};
  // A package added to or removed from package.json calls for an install.
  const names = (pkg) => JSON.stringify(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).sort());
  if (names(declared) !== names(root)) return false;
  return Object.entries(wanted.packages ?? {}).every(
    ([path, pkg]) =>
      path === "" ||
      have[path]?.version === pkg.version ||
      ((pkg.optional || pkg.devOptional) && !have[path]),
  );
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
