// The returning user: a wallet made in a fresh profile, then the page reloaded and timed to its balance.
// Used by `npm run bench:load` (`--beside` visits another build's reload in turn, run by run). Prints
// figures; nothing here passes or fails on time.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { fillStateFileImport } from "../e2e/state-file";
import { type StaticServer, serveStatic } from "./serve";
import { benchContext, launchChromium } from "./chromium";

/** How to reach one build's home and see its balance there. */
export interface ReloadTarget {
  readonly label: string;
  readonly dir: string;
  /** The first screen's button (a regex of its text), which makes a wallet. */
  readonly button: string;
  /** Buttons (a regex of their text) pressed whenever they show on the way to home: a skipped step. */
  readonly skip?: string;
  /** Home's balance: a css selector whose text holds a digit, or `text:<regex>` over the page's text. */
  readonly balance: string;
  /** A query string for every visit (a network, say). */
  readonly search?: string;
  /** Local storage set before each visit's first script runs (servers of the local world, say). */
  readonly storage?: Readonly<Record<string, string>>;
}

export interface Reload {
  /** Navigation start to the balance on screen, in the reloaded page. */
  readonly ms: number;
  /** Requests the reloaded page (and its workers) started before the balance showed, in order. */
  readonly before: string[];
  /** The wallet's making: its first button pressed to its home's balance (steps pressed at once). */
  readonly createMs: number;
  /**
   * A later reload, once the page's service worker (if the build has one) controls it and has stored what it
   * stores, and after one reload more: the owner who comes back another day. Null when the build's worker
   * never took control.
   */
  readonly installedMs: number | null;
}

/** Waits (up to `ms`) until a service worker controls the page; whether one does. */
const serviceWorkerInControl = (page: Page, ms: number): Promise<boolean> =>
  page
    .waitForFunction(() => Boolean(navigator.serviceWorker?.controller), null, { timeout: ms, polling: 250 })
    .then(
      () => true,
      () => false,
    );

/**
 * Resolves with the time (page clock) at which the balance shows; presses `then` buttons meanwhile. With
 * `press`, first presses the first screen's button (a regex of its text) the moment it is usable, in the
 * same wait, and resolves with that moment too: no round trip to the bench lies between a press and a step.
 */
const balanceShown = async (
  page: Page,
  balance: string,
  then?: string,
  press?: string,
): Promise<{ pressedAt: number | null; shownAt: number }> => {
  const handle = await page.waitForFunction(
    ([balance, then, press]) => {
      const w = window as { benchPressedAt?: number };
      if (press && w.benchPressedAt === undefined) {
        const re = new RegExp(press, "i");
        for (const b of document.querySelectorAll<HTMLElement>("button, [role=button], a")) {
          if (!re.test((b.textContent ?? "").trim()) || (b as HTMLButtonElement).disabled) continue;
          const r = b.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          w.benchPressedAt = performance.now();
          b.click();
          break;
        }
        return false;
      }
      const shown = { pressedAt: w.benchPressedAt ?? null, shownAt: performance.now() };
      if (balance.startsWith("text:")) {
        if (new RegExp(balance.slice(5), "i").test(document.body?.innerText ?? "")) return shown;
      } else {
        const el = document.querySelector(balance);
        if (el && /\d/.test(el.textContent ?? "")) return shown;
      }
      if (then) {
        const re = new RegExp(then, "i");
        for (const b of document.querySelectorAll<HTMLButtonElement>("button")) {
          if (b.dataset.benchPressed || b.disabled || !re.test((b.textContent ?? "").trim())) continue;
          b.dataset.benchPressed = "1";
          b.click();
        }
      }
      return false;
    },
    [balance, then ?? "", press ?? ""] as const,
    // Every frame: a locator's wait polls less often once the page has loaded, which would add to the figure.
    { polling: "raf", timeout: 180_000 },
  );
  return (await handle.jsonValue()) as { pressedAt: number | null; shownAt: number };
};

/**
 * Makes a wallet through the first screen, the way its owner would; answers the time from the press of its
 * button (the moment it is usable) to the balance on home, steps on the way pressed the moment they show.
 */
export const makeWallet = async (
  page: Page,
  server: StaticServer,
  target: ReloadTarget,
  /** How long the person reads the first screen before pressing its button (0: the moment it shows). */
  readMs = 0,
): Promise<number> => {
  await page.goto(`${server.url}/${target.search ?? ""}`);
  const re = new RegExp(target.button, "i");
  const button = page.locator("button, [role=button], a").filter({ hasText: re }).first();
  await button.waitFor({ timeout: 120_000 });
  if (readMs > 0) await page.waitForTimeout(readMs);
  const { pressedAt, shownAt } = await balanceShown(page, target.balance, target.skip, target.button);
  return shownAt - (pressedAt ?? shownAt);
};

/** A fresh browser profile with `target`'s local storage (and the world's esplora) set before any script. */
const freshProfile = async (
  browser: Browser,
  target: ReloadTarget,
  esplora?: string,
): Promise<BrowserContext> => {
  const context = await benchContext(browser);
  const storage = { ...target.storage, ...(esplora ? { USER_SETTINGS_esplora: esplora } : {}) };
  await context.addInitScript((pairs) => {
    for (const [k, v] of Object.entries(pairs)) localStorage.setItem(k, v);
  }, storage);
  return context;
};

/** A new wallet made in a fresh profile (`makeWallet`): its button pressed to home's balance, after `readMs`. */
export const newWalletVisit = async (
  browser: Browser,
  server: StaticServer,
  target: ReloadTarget,
  esplora?: string,
  readMs = 0,
): Promise<number> => {
  const context = await freshProfile(browser, target, esplora);
  try {
    return await makeWallet(await context.newPage(), server, target, readMs);
  } finally {
    await context.close();
  }
};

/**
 * One returning visit: a fresh profile makes a wallet, lets it settle (what it saves, its service worker),
 * then reloads; timed from the reload's navigation start to the balance.
 */
export const returningVisit = async (
  browser: Browser,
  server: StaticServer,
  target: ReloadTarget,
  opts: { settleMs?: number; esplora?: string } = {},
): Promise<Reload> => {
  const context = await freshProfile(browser, target, opts.esplora);
  try {
    const page = await context.newPage();
    const createMs = await makeWallet(page, server, target);
    await page.waitForTimeout(opts.settleMs ?? 3000);
    const started: string[] = [];
    let counting = false;
    context.on("request", (r) => {
      if (counting) started.push(new URL(r.url()).pathname);
    });
    counting = true;
    await page.reload({ waitUntil: "commit" });
    const ms = (await balanceShown(page, target.balance)).shownAt;
    counting = false;
    // The returning owner of another day: the build's service worker installed and in control, and the page
    // loaded once more before, as an owner's daily visits have (the browser then holds the code it compiled
    // for files its service worker answers, as it does for files in its HTTP cache by the third load).
    const installed = await serviceWorkerInControl(page, 30_000);
    await page.waitForTimeout(opts.settleMs ?? 3000);
    await page.reload({ waitUntil: "commit" });
    await balanceShown(page, target.balance);
    await page.waitForTimeout(opts.settleMs ?? 3000);
    await page.reload({ waitUntil: "commit" });
    const later = (await balanceShown(page, target.balance)).shownAt;
    return { ms, before: started, createMs, installedMs: installed ? later : null };
  } finally {
    await context.close();
  }
};

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${median(s).toFixed(0)} ms (min ${s[0]?.toFixed(0)}, max ${s.at(-1)?.toFixed(0)}, ${s.length} runs)`;
};

/** Reloads of each target's returning wallet, visited in turn run by run; ratios against the first. */
export const benchReload = async (
  targets: readonly ReloadTarget[],
  opts: { runs?: number; esplora?: string } = {},
): Promise<{ reloads: number[][]; creates: number[][] }> => {
  const runs = opts.runs ?? 5;
  const servers = await Promise.all(targets.map((t) => serveStatic(t.dir)));
  const browser = await launchChromium();
  const times: number[][] = targets.map(() => []);
  const creates: number[][] = targets.map(() => []);
  const installed: (number | null)[][] = targets.map(() => []);
  const lists: string[][] = targets.map(() => []);
  try {
    for (let i = 0; i < runs; i++)
      for (const [k, target] of targets.entries()) {
        // Every build is given the same local chain (this wallet and Mutiny's read the same setting).
        const r = await returningVisit(browser, servers[k]!, target, { esplora: opts.esplora });
        times[k]!.push(r.ms);
        creates[k]!.push(r.createMs);
        installed[k]!.push(r.installedMs);
        lists[k] = r.before;
      }
    const ours = median(times[0]!);
    for (const [k, target] of targets.entries()) {
      const ratio =
        k === 0 ? "" : `; ${targets[0]!.label}/${target.label} ${(ours / median(times[k]!)).toFixed(2)}×`;
      console.log(`returning user, reload to balance, ${target.label}: ${spread(times[k]!)}${ratio}`);
    }
    const controlled = installed.map((xs) => xs.filter((x): x is number => x !== null));
    for (const [k, target] of targets.entries()) {
      const xs = controlled[k]!;
      const ratio =
        k === 0 || !xs.length || !controlled[0]!.length
          ? ""
          : `; ${targets[0]!.label}/${target.label} ${(median(controlled[0]!) / median(xs)).toFixed(2)}×`;
      console.log(
        `returning user, a later reload (its service worker in control, one reload after; ${xs.length} of ${installed[k]!.length} runs had one), ${target.label}: ${xs.length ? spread(xs) : "none"}${ratio}`,
      );
    }
    const made = median(creates[0]!);
    for (const [k, target] of targets.entries()) {
      const ratio =
        k === 0 ? "" : `; ${targets[0]!.label}/${target.label} ${(made / median(creates[k]!)).toFixed(2)}×`;
      console.log(
        `new wallet, its button pressed to home's balance (steps on the way pressed at once), ${target.label}: ${spread(creates[k]!)}${ratio}`,
      );
    }
    console.log(
      `requests of ${targets[0]!.label}'s last reload before its balance, in the order they started: ${lists[0]!.join(", ")}`,
    );
    return { reloads: times, creates };
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
};

/** Brings a wallet in from a state file the way its owner does: the emergency kit, the file, its password. */
export const importWallet = async (page: Page, server: StaticServer, file: string, password: string) => {
  await (await fillStateFileImport(page, file, password, server.url)).click();
  await page.waitForURL(/\/$/, { timeout: 300_000 });
  await balanceShown(page, "[data-testid=onchain-balance]");
};

/**
 * The reload of a wallet with 1,000 contacts, 5,000 activity rows and 3 custodians beside an empty wallet's,
 * each in its own profile, reloaded in turn run by run: the medians and their ratio.
 */
export const benchBigReload = async (dir: string, opts: { runs?: number; esplora?: string } = {}) => {
  const { bigWalletState, BIG_PASSWORD } = await import("./big-wallet");
  const { mkdtemp, rm, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const runs = opts.runs ?? 5;
  const state = await bigWalletState();
  const tmp = await mkdtemp(join(tmpdir(), "big-wallet-"));
  const file = join(tmp, "mutiny-state.json");
  await writeFile(file, state.json);
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  try {
    const open = async () => {
      const context = await benchContext(browser);
      if (opts.esplora)
        await context.addInitScript(
          (url) => localStorage.setItem("USER_SETTINGS_esplora", url),
          opts.esplora,
        );
      return context.newPage();
    };
    const empty = await open();
    await makeWallet(empty, server, {
      label: "",
      dir,
      button: "^New wallet$",
      skip: "^Skip$",
      balance: "[data-testid=onchain-balance]",
    });
    const big = await open();
    const t0 = Date.now();
    await importWallet(big, server, file, BIG_PASSWORD);
    const importMs = Date.now() - t0;
    // What each saves once it is up (its views, its service worker) is saved before the first reload.
    await Promise.all([empty.waitForTimeout(5000), big.waitForTimeout(5000)]);
    const reload = async (page: Page) => {
      await page.reload({ waitUntil: "commit" });
      return (await balanceShown(page, "[data-testid=onchain-balance]")).shownAt;
    };
    const emptyMs: number[] = [];
    const bigMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      emptyMs.push(await reload(empty));
      bigMs.push(await reload(big));
    }
    console.log(
      `returning user with ${state.events.toLocaleString("en")} events (1,000 contacts, 5,000 activity rows, 3 custodians; its import ${(importMs / 1000).toFixed(1)} s): reload to balance ${spread(bigMs)}; an empty wallet's, in turn: ${spread(emptyMs)}; ratio ${(median(bigMs) / median(emptyMs)).toFixed(2)}×`,
    );
  } finally {
    await browser.close();
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  }
};
