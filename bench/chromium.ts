import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";

/**
 * How long a step of the benchmark's pages may wait (a click, a locator, a navigation): sized to a busy
 * two-core machine, where a page of the wallet can take far longer than Playwright's 30 s default to
 * answer. The figures are timed by the benchmark itself, never by these limits.
 */
export const BUSY_MACHINE_WAIT_MS = 180_000;

/** Debian's Chromium, started as the end-to-end tests start it. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

/** A fresh browser profile of `browser` whose pages wait as long as a busy machine needs. */
export const benchContext = async (
  browser: Browser,
  options?: BrowserContextOptions,
): Promise<BrowserContext> => {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(BUSY_MACHINE_WAIT_MS);
  context.setDefaultNavigationTimeout(BUSY_MACHINE_WAIT_MS);
  return context;
};
