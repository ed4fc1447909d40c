import { spawn } from "node:child_process";
import { waitForUrl } from "../harness/http";
import { benchContext, launchChromium } from "./chromium";
import { newWalletPage } from "./wallet-page";

/** Cold load of an existing wallet to an interactive home with its balance, median of 15 loads. */
export const benchColdLoad = async (esplora: string) => {
  const port = 4273;
  const server = spawn(
    "npx",
    ["vite", "preview", "--port", String(port), "--strictPort", "--logLevel", "error"],
    { stdio: "ignore", detached: true },
  );
  try {
    await waitForUrl(`http://127.0.0.1:${port}/`);
    const browser = await launchChromium();
    const context = await benchContext(browser);
    const page = await newWalletPage(context, `http://127.0.0.1:${port}`, esplora);
    await page.close();
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const p = await context.newPage();
      const t0 = Date.now();
      await p.goto(`http://127.0.0.1:${port}/`);
      await p.getByTestId("onchain-balance").filter({ hasText: "sats" }).waitFor();
      times.push(Date.now() - t0);
      await p.close();
    }
    times.sort((a, b) => a - b);
    console.log(
      `cold load to home with balance: median ${times[7]} ms (min ${times[0]}, max ${times[14]}, 15 loads, service worker warm)`,
    );
    await browser.close();
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
};
