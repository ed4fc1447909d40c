import { spawn } from "node:child_process";
import { waitForUrl } from "../harness/http";
import { Effect } from "effect";
import { newWalletPage } from "./wallet-page";
import type { Harness } from "../harness/world";
import { toEvents } from "../property-tests/arbitraries";
import { AT_REST_KDF_PARAMS } from "../src/commands/wallet/at-rest";
import { newMnemonic } from "../src/engine/keys/mnemonic";
import { makeOnchainPort } from "../src/engine/onchain/live";
import { foldEvents } from "../src/projections";
import { benchContext, launchChromium } from "./chromium";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Unlock in Chromium with the wallet's KDF parameters (PBKDF2-SHA256, `AT_REST_KDF_PARAMS`): from pressing
 * Decrypt to the dialog closing, which derives the key, checks it and opens the seed. Median of 7 starts.
 */
export const benchUnlock = async (esplora: string) => {
  const port = 4274;
  const server = spawn(
    "npx",
    ["vite", "preview", "--port", String(port), "--strictPort", "--logLevel", "error"],
    { stdio: "ignore", detached: true },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForUrl(`${base}/`);
    const browser = await launchChromium();
    const context = await benchContext(browser);
    const page = await newWalletPage(context, base, esplora);
    await page.goto(`${base}/settings/backup`);
    // The words stay covered until the owner asks to see them.
    await page.getByRole("button", { name: "Show the 12 words" }).click();
    await page.getByRole("list", { name: "Seed words" }).getByRole("listitem").nth(11).waitFor();
    for (const box of await page.getByRole("checkbox").all()) await box.check();
    await page.getByRole("button", { name: "I wrote down the words" }).click();
    await page.goto(`${base}/settings`);
    await page.getByRole("link", { name: "Change password" }).click();
    await page.getByLabel("New password").fill("bench password");
    await page.getByLabel("Confirm password").fill("bench password");
    const s0 = Date.now();
    await page.getByRole("button", { name: "Save password" }).click();
    await page.getByText("Password saved").waitFor();
    const setMs = Date.now() - s0;
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      await page.goto(`${base}/`);
      const dialog = page.getByRole("dialog", { name: "Enter your password" });
      await dialog.getByLabel("Password").fill("bench password");
      const t0 = Date.now();
      await dialog.getByRole("button", { name: "Decrypt wallet" }).click();
      await dialog.waitFor({ state: "detached" });
      times.push(Date.now() - t0);
    }
    console.log(
      `unlock in Chromium (PBKDF2-SHA256 ${AT_REST_KDF_PARAMS.iterations.toLocaleString("en")} iterations + AES-256-GCM): median ${median(times)} ms (min ${Math.min(...times)}, max ${Math.max(...times)}, 7 starts)`,
    );
    console.log(`setting the password (one key derivation, re-sealing the seed): ${setMs} ms`);
    await browser.close();
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
};

/** A restore from the 12 words of a wallet that used 200 receive addresses: the first scan, from nothing. */
export const benchRestoreScan = async (world: Harness) => {
  const mnemonic = newMnemonic();
  const setup = makeOnchainPort(mnemonic, "regtest", world.esploraUrl);
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) {
    await world.faucet(setup.addressAt("external", i), 20_000n + BigInt(i));
    if (i % 50 === 49) await world.mine(1);
  }
  await world.mine(1);
  console.log(`(set-up: 200 addresses paid in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  let requests = 0;
  const fetchFn = ((input: RequestInfo | URL, init?: RequestInit) => {
    requests++;
    return fetch(input, init);
  }) as typeof fetch;
  const restored = makeOnchainPort(mnemonic, "regtest", world.esploraUrl, fetchFn);
  const t1 = performance.now();
  const events = await Effect.runPromise(restored.sync(foldEvents(toEvents([])).onchain));
  console.log(
    `restore from seed, scan of a wallet with 200 used addresses: ${(performance.now() - t1).toFixed(0)} ms, ${requests} HTTP requests, ${events.length} events`,
  );
};
