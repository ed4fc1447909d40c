// Page-load figures for any static build: `npm run bench:load -- <dir> [--button <regex>] [--home <css>]
// [--runs N] [--esplora URL] [--beside <dir> --beside-button <regex>] [--beside-reload-selector <css> |
// --beside-reload-text <regex>] [--beside-then <regex>] [--beside-search <?query>] [--beside-storage k=v,…] [--storage k=v,…] [--reload-only]`: the first
// visit, then the returning user's reload (bench/reload.ts). Prints figures; nothing here passes or fails on
// time. See bench/README.md.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { benchBigReload, benchReload, type ReloadTarget } from "./reload";
import { type StaticServer, serveStatic } from "./serve";
import { benchContext, launchChromium } from "./chromium";

/** Our welcome screen's button, and home with its balance: what "usable" means for this wallet. */
export const OUR_BUTTON = "^New wallet$";
export const OUR_HOME = "[data-testid=onchain-balance]";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const spread = (xs: number[], unit = "ms", digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(digits);
  return `median ${f(median(s))} ${unit} (min ${f(s[0] ?? Number.NaN)}, max ${f(s.at(-1) ?? Number.NaN)}, ${s.length} runs)`;
};

/** The time, from navigation start, at which a visible, enabled button named by `pattern` is on screen. */
const buttonReady = async (page: Page, pattern: string): Promise<number> => {
  const handle = await page.waitForFunction(
    (source) => {
      const re = new RegExp(source, "i");
      for (const b of document.querySelectorAll("button, [role=button], a.button")) {
        const el = b as HTMLElement;
        if (!re.test((el.textContent ?? "").trim())) continue;
        if ((el as HTMLButtonElement).disabled || el.getAttribute("aria-disabled") === "true") continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) return performance.now();
      }
      return false;
    },
    pattern,
    // Every frame: a locator's wait polls less often once the page has loaded, which would add to the figure.
    { polling: "raf", timeout: 120_000 },
  );
  return (await handle.jsonValue()) as number;
};

/**
 * Clicks the button and answers [click time, time the next screen is usable: home, or the new-profile step
 * that may come first, time home is usable after it: its Skip pressed the moment it is], from navigation
 * start.
 */
const clickToHome = async (page: Page, pattern: string, home: string): Promise<[number, number, number]> => {
  const clickedAt = await page.evaluate((source) => {
    const re = new RegExp(source, "i");
    const b = [...document.querySelectorAll("button")].find((x) => re.test((x.textContent ?? "").trim()));
    if (!b) throw new Error(`no button at ${location.pathname}: ${document.body.innerText.slice(0, 300)}`);
    const t = performance.now();
    b.click();
    return t;
  }, pattern);
  const handle = await page.waitForFunction(
    (selector) => {
      const el = document.querySelector(selector);
      if (el && /\d/.test(el.textContent ?? "")) return performance.now();
      // This wallet's new-profile step, when it comes first: usable once its Skip button is.
      if (location.pathname !== "/newprofile") return false;
      const skip = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Skip");
      return skip && !skip.disabled ? performance.now() : false;
    },
    home,
    { polling: "raf", timeout: 120_000 },
  );
  const usableAt = (await handle.jsonValue()) as number;
  const homeHandle = await page.waitForFunction(
    (selector) => {
      const el = document.querySelector(selector);
      if (el && /\d/.test(el.textContent ?? "")) return performance.now();
      const skip = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Skip");
      if (location.pathname === "/newprofile" && skip && !skip.dataset.pressed) {
        skip.dataset.pressed = "1";
        skip.click();
      }
      return false;
    },
    home,
    { polling: "raf", timeout: 120_000 },
  );
  return [clickedAt, usableAt, (await homeHandle.jsonValue()) as number];
};

export interface Visit {
  readonly buttonMs: number;
  /** Gzip bytes over the wire whose answers ended before the button was usable. */
  readonly bytesBefore: number;
  readonly wasmBefore: string[];
  readonly clickToHomeMs: number | null;
  readonly navToHomeMs: number | null;
  /** Click to home itself, through a first-run step skipped the moment it is usable (as clickToHomeMs without one). */
  readonly clickToSkippedHomeMs: number | null;
  /** What was asked for between the click and home: gzip bytes, and the wasm files among it. */
  readonly bytesToHome: number | null;
  readonly wasmToHome: string[];
  /** Wasm files fetched more than once in the visit (a service worker's install counts). */
  readonly wasmTwice: string[];
  readonly wasmFetched: string[];
}

/** One first visit in a fresh profile (nothing cached, no service worker). */
export const firstVisit = async (
  browser: Browser,
  server: StaticServer,
  opts: { button: string; home: string | null; esplora?: string; settleMs?: number; pauseMs?: number },
): Promise<Visit> => {
  const context = await benchContext(browser);
  if (opts.esplora)
    await context.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), opts.esplora);
  try {
    const page = await context.newPage();
    server.reset();
    await page.goto(`${server.url}/`, { waitUntil: "commit" });
    const buttonMs = await buttonReady(page, opts.button);
    const origin = await page.evaluate(() => performance.timeOrigin);
    const before = server.log.filter((s) => s.end <= origin + buttonMs);
    let clickToHomeMs: number | null = null;
    let navToHomeMs: number | null = null;
    let clickToSkippedHomeMs: number | null = null;
    let toHome: typeof server.log = [];
    if (opts.home) {
      // A person reads the screen before pressing: the pause lets the worker warm up behind it.
      if (opts.pauseMs) await page.waitForTimeout(opts.pauseMs);
      const [clicked, home, skipped] = await clickToHome(page, opts.button, opts.home);
      clickToHomeMs = home - clicked;
      navToHomeMs = home;
      clickToSkippedHomeMs = skipped - clicked;
      toHome = server.log.filter((s) => s.start >= origin + clicked && s.start <= origin + skipped);
    }
    // What else the visit fetches while the wallet settles (engines, the service worker's install).
    await page.waitForTimeout(opts.settleMs ?? 5000);
    const wasm = server.log.filter((s) => s.path.endsWith(".wasm") && s.status === 200).map((s) => s.path);
    return {
      buttonMs,
      bytesBefore: before.reduce((n, s) => n + s.bytes, 0),
      wasmBefore: before.filter((s) => s.path.endsWith(".wasm")).map((s) => s.path),
      clickToHomeMs,
      navToHomeMs,
      clickToSkippedHomeMs,
      bytesToHome: opts.home ? toHome.reduce((n, s) => n + s.bytes, 0) : null,
      wasmToHome: toHome.filter((s) => s.path.endsWith(".wasm")).map((s) => s.path),
      wasmTwice: [...new Set(wasm.filter((p, i) => wasm.indexOf(p) !== i))],
      wasmFetched: [...new Set(wasm)],
    };
  } finally {
    await context.close();
  }
};

/** A page with one button and nothing else, to compare a welcome screen with the fastest it could be. */
const oneButtonPage = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), "one-button-"));
  await writeFile(
    join(dir, "index.html"),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>One button</title></head><body><button type="button">New wallet</button></body></html>',
  );
  return dir;
};

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/**
 * First visits to `dir` and to a one-button page served the same way, interleaved so both see the same
 * machine; for a wallet whose home is known, the click on its welcome button to a usable home too.
 */
export const benchLoad = async (
  dir: string,
  opts: {
    button?: string;
    home?: string | null;
    runs?: number;
    esplora?: string;
    label?: string;
    /** Another wallet's build, visited in turn with the others so the ratio is taken on the same machine. */
    beside?: { dir: string; button: string };
  } = {},
) => {
  const button = opts.button ?? OUR_BUTTON;
  const home = opts.home === undefined ? OUR_HOME : opts.home;
  const runs = opts.runs ?? 5;
  const label = opts.label ?? dir;
  const staticDir = await oneButtonPage();
  const ours = await serveStatic(dir);
  const plain = await serveStatic(staticDir);
  const other = opts.beside ? await serveStatic(opts.beside.dir) : null;
  const browser = await launchChromium();
  try {
    const visits: Visit[] = [];
    const plainMs: number[] = [];
    const otherMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      visits.push(await firstVisit(browser, ours, { button, home, esplora: opts.esplora }));
      plainMs.push(
        (await firstVisit(browser, plain, { button: "^New wallet$", home: null, settleMs: 0 })).buttonMs,
      );
      if (other && opts.beside)
        otherMs.push(
          (await firstVisit(browser, other, { button: opts.beside.button, home: null, settleMs: 0 }))
            .buttonMs,
        );
    }
    const buttonMs = visits.map((v) => v.buttonMs);
    console.log(`first visit to ${label}, welcome button usable after navigation: ${spread(buttonMs)}`);
    console.log(
      `one-button static page served the same way: ${spread(plainMs)}; difference of medians ${(median(buttonMs) - median(plainMs)).toFixed(0)} ms`,
    );
    if (opts.beside)
      console.log(
        `${opts.beside.dir}, its first button usable after navigation, visited in turn: ${spread(otherMs)}; ratio of medians ${(median(buttonMs) / median(otherMs)).toFixed(2)}×`,
      );
    const bytes = visits.map((v) => v.bytesBefore);
    const wasmBefore = [...new Set(visits.flatMap((v) => v.wasmBefore))];
    console.log(
      `bytes over the wire before the welcome button: ${kb(median(bytes))} (gzip where served so; max ${kb(Math.max(...bytes))}); wasm before it: ${wasmBefore.length ? wasmBefore.join(", ") : "none"}`,
    );
    const twice = [...new Set(visits.flatMap((v) => v.wasmTwice))];
    const fetched = [...new Set(visits.flatMap((v) => v.wasmFetched))];
    console.log(
      `wasm fetched in the first visit: ${fetched.length ? fetched.join(", ") : "none"}; fetched twice: ${twice.length ? twice.join(", ") : "none"}`,
    );
    if (home) {
      const click = visits.map((v) => v.clickToHomeMs ?? Number.NaN);
      const nav = visits.map((v) => v.navToHomeMs ?? Number.NaN);
      console.log(`welcome button click to usable home, clicked the moment it shows: ${spread(click)}`);
      const skipped = visits.map((v) => v.clickToSkippedHomeMs ?? Number.NaN);
      console.log(
        `welcome button click to home itself, a first-run step skipped at once: ${spread(skipped)}`,
      );
      console.log(`navigation to home with a new wallet (one click, at once): ${spread(nav)}`);
      const toHome = visits.map((v) => v.bytesToHome ?? Number.NaN);
      const wasmToHome = [...new Set(visits.flatMap((v) => v.wasmToHome))];
      console.log(
        `asked for between the click and home itself: ${kb(median(toHome))} (gzip; max ${kb(Math.max(...toHome))}); wasm among it: ${wasmToHome.length ? wasmToHome.join(", ") : "none"}`,
      );
      const read: number[] = [];
      for (let i = 0; i < runs; i++)
        read.push(
          (
            await firstVisit(browser, ours, {
              button,
              home,
              esplora: opts.esplora,
              pauseMs: 1500,
              settleMs: 0,
            })
          ).clickToHomeMs ?? Number.NaN,
        );
      console.log(
        `welcome button click to usable home, clicked 1.5 s after it shows (a person reading it): ${spread(read)}`,
      );
    }
  } finally {
    await browser.close();
    await ours.close();
    await plain.close();
    await other?.close();
    await rm(staticDir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const button = flag("button");
  const home = flag("home");
  const runs = flag("runs");
  const esplora = flag("esplora");
  const besideDir = flag("beside");
  const besideButton = flag("beside-button");
  const besideSelector = flag("beside-reload-selector");
  const besideText = flag("beside-reload-text");
  const besideThen = flag("beside-then");
  const besideSearch = flag("beside-search");
  const besideStorage = flag("beside-storage");
  const ourStorage = flag("storage");
  const reloadOnly = args.includes("--reload-only");
  if (reloadOnly) args.splice(args.indexOf("--reload-only"), 1);
  const dir = args[0];
  if (!dir) {
    console.error(
      "usage: npm run bench:load -- <build dir> [--button <regex of the first screen's button>] [--home <css of a usable home, '' for none>] [--runs N] [--esplora URL] [--beside <another build dir> --beside-button <regex of its first button>] [--beside-reload-selector <css of its balance> | --beside-reload-text <regex of its home's text>] [--beside-then <regex of buttons to press on the way to its home>] [--beside-search <?query for its pages>] [--beside-storage <key=value,… of local storage for its pages>] [--storage <key=value,… of local storage for this build's pages in the returning-user visits>] [--reload-only]",
    );
    process.exit(2);
  }
  const ourHome = home === "" ? null : (home ?? (button ? null : OUR_HOME));
  if (!reloadOnly)
    await benchLoad(dir, {
      button,
      // Another wallet's build: its home is unknown unless given.
      home: ourHome,
      runs: runs ? Number(runs) : undefined,
      esplora,
      beside: besideDir ? { dir: besideDir, button: besideButton ?? OUR_BUTTON } : undefined,
    });
  // The returning user: ours (or the build given, with its home) and, in turn, the other build's.
  if (ourHome) {
    const pairs = (list: string | undefined) =>
      list
        ? Object.fromEntries(
            list.split(",").map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
          )
        : undefined;
    const targets: ReloadTarget[] = [
      {
        label: "this wallet",
        dir,
        button: button ?? OUR_BUTTON,
        skip: "^Skip$",
        balance: ourHome,
        storage: pairs(ourStorage),
      },
    ];
    const besideBalance = besideSelector ?? (besideText ? `text:${besideText}` : undefined);
    if (besideDir && besideBalance)
      targets.push({
        label: besideDir,
        dir: besideDir,
        button: besideButton ?? OUR_BUTTON,
        skip: besideThen,
        balance: besideBalance,
        search: besideSearch,
        storage: pairs(besideStorage),
      });
    await benchReload(targets, { runs: runs ? Number(runs) : undefined, esplora });
    if (!button) await benchBigReload(dir, { runs: runs ? Number(runs) : undefined, esplora });
  }
}
