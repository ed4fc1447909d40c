import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { serveStatic } from "./serve";
const s = await serveStatic("/work/wt/first-visit/dist");
const b = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (let i = 0; i < 3; i++) {
  const c = await b.newContext(); const p = await c.newPage();
  const logs: string[] = [];
  p.on("console", (m) => logs.push(m.text()));
  s.reset();
  await p.goto(s.url + "/", { waitUntil: "commit" });
  const btn = p.getByRole("button", { name: "New wallet" });
  await btn.waitFor();
  const origin = await p.evaluate(() => performance.timeOrigin);
  const clickAt = await p.evaluate(() => { const t = performance.timeOrigin + performance.now(); [...document.querySelectorAll("button")].find(b => b.textContent === "New wallet")!.click(); return t; });
  await p.waitForFunction(() => /\d/.test(document.querySelector("[data-testid=onchain-balance]")?.textContent ?? ""), null, { polling: "raf" });
  const home = await p.evaluate(() => performance.timeOrigin + performance.now());
  console.log("click", (clickAt - origin).toFixed(0), "home", (home - origin).toFixed(0));
  for (const l of logs.filter(l => l.startsWith("T "))) { const [_, n, t] = l.split(/ (?=[^ ]+$)|^T /); console.log("  ", l.replace(/ \d+$/, ""), (Number(l.split(" ").at(-1)) - origin).toFixed(0)); }
  for (const x of s.log) console.log("   srv", x.path, x.bytes, (x.end - origin).toFixed(0));
  await c.close();
}
await b.close(); await s.close();
