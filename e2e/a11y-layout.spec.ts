import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ROUTES_BUILT } from "../src/screens/routes";
import { expect, test } from "./fixtures";

/** The catalogue's words in `lang`, as a person reads them on the buttons. */
const words = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), "utf8"));

/**
 * Every route, as a person sees it on a phone (390×844) and a laptop (1280×800), in English and Deutsch:
 * no accessibility violations (axe-core, WCAG 2.1 AA and best practice), nothing wider than the screen
 * at 320 px, and a screenshot compared with the committed baseline so a layout break shows in review.
 * One wallet per language, and the routes walked in turn.
 */

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** The routes compared with screenshots: those this release serves, and the not-found page. */
const SCREENSHOT_ROUTES = [
  "/",
  "/receive",
  "/send",
  "/search",
  "/scanner",
  "/settings",
  "/settings/backup",
  "/settings/restore",
  "/settings/currency",
  "/settings/language",
  "/settings/emergencykit",
  "/settings/channels",
  "/settings/admin",
  "/swap",
  "/settings/encrypt",
  "/settings/servers",
  "/no/such/page",
];

/** Every route of the release with a wallet (the welcome screens are checked before one exists). */
const WALLET_ROUTES = [
  ...ROUTES_BUILT.filter((r) => r !== "/setup" && r !== "/setup/restore"),
  "/no/such/page",
];

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * Opens `route` as the app's own links do (no reload: the wallet keeps running) and waits until its page
 * has drawn: one page shown, nothing loading, fonts ready.
 */
const open = async (page: Page, route: string) => {
  await page.evaluate((r) => {
    history.pushState(null, "", r);
    dispatchEvent(new PopStateEvent("popstate"));
  }, route);
  await expect(page).toHaveURL((u) => u.pathname === route);
  await expect(page.locator("main:visible")).toHaveCount(1);
  await expect(page.locator("main:visible h1")).toHaveCount(1);
  await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
};

/** Waits until home is settled: the lightning node started and the balance drawn. */
const settleHome = async (page: Page) => {
  await expect(page.getByRole("tab").first()).toBeVisible();
  await expect(page.locator(".home-progress")).toHaveCount(0, { timeout: 120_000 });
  await expect(page.locator(".balance-card .badge")).toHaveCount(0, { timeout: 120_000 });
};

const violationsOf = async (page: Page) => {
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return r.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  }));
};

/** What is on screen that differs from run to run: addresses, codes, times, the version, this run's ports. */
const masks = (page: Page) => [
  page.getByText(/127\.0\.0\.1:\d+/),
  page.locator("input[id^='server-']"),
  page.locator("code"),
  page.locator(".version"),
  page.locator(".activity-time"),
  page.locator("[data-dynamic]"),
  page.locator("video"),
];

const widthOverflow = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));

for (const lang of ["en", "de"] as const) {
  test(`every route in ${lang}: no accessibility violations, nothing overflows at 320 px, screenshots match`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    await page.addInitScript((l) => localStorage.setItem("i18nextLng", l), lang);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/");
    await expect(page).toHaveURL(/\/setup$/);

    // Before a wallet exists: the welcome screens.
    for (const route of ["/setup", "/setup/restore"]) {
      await open(page, route);
      expect.soft(await violationsOf(page), `${route} (${lang}, phone)`).toEqual([]);
      await expect
        .soft(page)
        .toHaveScreenshot([lang, "phone", `${route.slice(1).replaceAll("/", "_")}.png`], {
          fullPage: true,
          mask: masks(page),
        });
    }

    await open(page, "/setup");
    await page.getByRole("button", { name: words(lang)["setup.new_wallet"] }).click();
    // First run offers a profile; this walk skips it (the profile screens are walked below).
    await expect(page).toHaveURL(/\/newprofile$/);
    await page.getByRole("button", { name: words(lang)["profile.skip"] }).click();
    await expect(page).toHaveURL(/\/$/);
    await settleHome(page);

    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      for (const route of WALLET_ROUTES) {
        await open(page, route);
        if (route === "/") await settleHome(page);
        expect.soft(await violationsOf(page), `${route} (${lang}, ${size})`).toEqual([]);
        if (SCREENSHOT_ROUTES.includes(route)) {
          const name = route === "/" ? "home" : route.slice(1).replaceAll("/", "_");
          await expect.soft(page).toHaveScreenshot([lang, size, `${name}.png`], {
            fullPage: true,
            mask: masks(page),
          });
        }
      }
    }

    // The narrowest phone: nothing is wider than the screen, on any route.
    await page.setViewportSize({ width: 320, height: 640 });
    for (const route of ["/setup", ...WALLET_ROUTES]) {
      await open(page, route);
      const { scrollWidth, viewport } = await widthOverflow(page);
      expect
        .soft(scrollWidth, `${route} (${lang}) is ${scrollWidth} px wide at ${viewport} px`)
        .toBeLessThanOrEqual(viewport);
    }
  });
}
