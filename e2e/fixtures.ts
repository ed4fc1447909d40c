import { test as base, expect, type Page } from "@playwright/test";

/** Every test's wallet talks to this run's local regtest world. */
export const test = base.extend<{ esplora: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  esplora: async ({}, use) => {
    const url = process.env.HARNESS_ESPLORA;
    if (!url) throw new Error("The regtest world did not start");
    await use(url);
  },
  page: async ({ page, esplora }, use) => {
    await page.addInitScript((url) => {
      if (!localStorage.getItem("USER_SETTINGS_esplora")) localStorage.setItem("USER_SETTINGS_esplora", url);
    }, esplora);
    await use(page);
  },
});
export { expect };

/** Creates a new wallet from the welcome screen and waits for home. */
export const createWallet = async (page: Page) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByRole("button", { name: "New wallet" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
};
