import type { Page, Route } from "@playwright/test";
import { createWallet, expect, test, walletMade } from "./fixtures";

// The app's code is held back by the test, so no service worker may serve it from its cache.
test.use({ serviceWorkers: "block" });

/** Holds back the app's code (everything after the first screen) until `release` is called. */
const holdAppCode = async (page: Page) => {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/start-[^/]+\.js$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    release: async () => {
      released = true;
      for (const r of held.splice(0)) await r.continue();
    },
  };
};

/** The page's own first script has run: it adds the connection policy before anything else. */
const firstScriptRan = (page: Page) =>
  expect(page.locator('meta[http-equiv="Content-Security-Policy"][content^="connect-src"]')).toHaveCount(1);

test("a newcomer can press New wallet before the app's code has arrived, and gets the wallet once it does", async ({
  page,
}) => {
  const app = await holdAppCode(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await page.getByRole("button", { name: "New wallet" }).click();
  // Pressed, and saying so, while the app is still on its way.
  await expect(page.getByRole("button", { name: "Creating…" })).toBeDisabled();
  await app.release();
  await expect(page).toHaveURL(/\/newprofile$/);
  await page.getByRole("button", { name: "Skip" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await walletMade(page);
  // One wallet, made once: it survives a reload.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
});

test("the welcome screen stays on screen while the app takes over from the early one", async ({ page }) => {
  // Every moment the page shows something after the welcome screen first appears, its button is there.
  await page.addInitScript(() => {
    const w = window as unknown as { welcomeGone?: string };
    let shown = false;
    new MutationObserver(() => {
      const button = [...document.querySelectorAll("button")].some((b) =>
        /^(New wallet|Creating…)$/.test(b.textContent ?? ""),
      );
      if (button) shown = true;
      else if (shown) w.welcomeGone ??= location.pathname;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  // The app has drawn over the early screen (React marks the root it renders into), and settled.
  await page.waitForFunction(() =>
    Object.keys(document.getElementById("root") ?? {}).some((k) => k.startsWith("__reactContainer")),
  );
  await expect(page.getByRole("button", { name: "New wallet" })).toBeEnabled();
  await page.waitForTimeout(1000);
  expect(
    await page.evaluate(() => (window as unknown as { welcomeGone?: string }).welcomeGone ?? null),
  ).toBeNull();
});

test("the early welcome screen speaks the browser's language", async ({ browser, esplora }) => {
  const context = await browser.newContext({ locale: "de-DE", serviceWorkers: "block" });
  const page = await context.newPage();
  await page.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), esplora);
  await holdAppCode(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Willkommen" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Neue Wallet" })).toBeEnabled();
  await context.close();
});

test("a browser that holds a wallet is never shown the welcome screen ahead of the app", async ({ page }) => {
  await createWallet(page);
  await holdAppCode(page);
  await page.reload();
  await firstScriptRan(page);
  await expect(page.locator("#root > *")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New wallet" })).toHaveCount(0);
});

test("on a laptop the welcome screen carries the logo and no navigation of a wallet that does not exist; a made wallet has it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.waitForFunction(() =>
    Object.keys(document.getElementById("root") ?? {}).some((k) => k.startsWith("__reactContainer")),
  );
  await expect(page.getByRole("img", { name: "Wallet", exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  // Past the skip link, the next Tab stop is New wallet.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "New wallet" })).toBeFocused();
  await createWallet(page);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Search" }),
  ).toBeVisible();
});
