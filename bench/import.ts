import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillStateFileImport } from "../e2e/state-file";
import { serveStatic } from "./serve";
import { benchContext, launchChromium } from "./chromium";

/**
 * Import of a large state file in Chromium, as the owner does it: the emergency kit of a browser with no
 * wallet, the file, its password. Times the import (the password's stretch included) from the click to the
 * wallet's answer, then the reload to home with the imported log's balance.
 */
export const benchImportInChromium = async (
  json: string,
  password: string,
  events: number,
  build = "dist",
) => {
  const dir = await mkdtemp(join(tmpdir(), "state-file-"));
  const file = join(dir, "mutiny-state.json");
  await writeFile(file, json);
  const server = await serveStatic(build);
  const browser = await launchChromium();
  try {
    const context = await benchContext(browser);
    const page = await context.newPage();
    const submit = await fillStateFileImport(page, file, password, server.url);
    await submit.waitFor();
    const clickedAt = await page.evaluate(() => performance.now());
    await submit.click();
    const answered = await page.waitForFunction(
      () => (document.body.innerText.includes("Imported. Reloading") ? performance.now() : false),
      null,
      { polling: "raf", timeout: 300_000 },
    );
    const importMs = ((await answered.jsonValue()) as number) - clickedAt;
    await page.waitForURL(/\/$/, { timeout: 120_000 });
    const home = await page.waitForFunction(
      () =>
        /[1-9]/.test(document.querySelector("[data-testid=onchain-balance]")?.textContent ?? "")
          ? performance.now()
          : false,
      null,
      { polling: "raf", timeout: 300_000 },
    );
    const homeMs = (await home.jsonValue()) as number;
    console.log(
      `import of a ${events.toLocaleString("en")}-event state file (${(json.length / 1e6).toFixed(1)} MB) in Chromium: ${(importMs / 1000).toFixed(2)} s from the click to the wallet's answer (password stretch included); then the reload to home with its balance: ${homeMs.toFixed(0)} ms`,
    );
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
};
