import type { Page } from "@playwright/test";
import { expect, test, walletMade } from "./fixtures";

/**
 * A person with only a keyboard (Tab, Shift+Tab, Enter, Space, Escape, arrows), on a phone-sized screen:
 * from the welcome screen to a created wallet, Receive and copy the address, Send, Settings. At every
 * step the focused element shows its focus, and it is the control the step names (role and name).
 */

type Role = Parameters<Page["getByRole"]>[0];

/**
 * What has focus now: its role as a screen reader reads it, its name, whether focus is drawn, and whether
 * the phone's fixed bottom bar covers any of it (an element of the bar itself is never covered).
 */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: "body", visible: false, text: "", covered: false };
    const style = getComputedStyle(el);
    const drawn =
      el.matches(":focus-visible") &&
      ((style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) ||
        style.boxShadow !== "none");
    const rect = el.getBoundingClientRect();
    const onScreen = rect.width > 0 && rect.height > 0;
    const bar = document.querySelector(".mobile-actions");
    const barTop = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : null;
    return {
      tag: el.tagName.toLowerCase(),
      visible: drawn && onScreen,
      covered: barTop !== null && !bar?.contains(el) && rect.bottom > barTop + 0.5,
      text: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 60),
    };
  });

/**
 * Presses Tab (or Shift+Tab) until the control with `role` and `name` has focus, at most `max` times;
 * every control passed on the way shows a visible focus.
 */
const tabTo = async (page: Page, role: Role, name: string | RegExp, { back = false, max = 25 } = {}) => {
  const target = page.getByRole(role, { name, exact: typeof name === "string" }).first();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const f = await focused(page);
    expect(f.visible, `focus on <${f.tag}> "${f.text}" is visible`).toBe(true);
    expect(f.covered, `focus on <${f.tag}> "${f.text}" is not under the bottom bar`).toBe(false);
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      await expect(target).toBeFocused();
      return;
    }
  }
  throw new Error(`${role} "${String(name)}" was not reached with ${max} presses of Tab`);
};

/**
 * Tabs through every control of the page, from where focus is to the end: each one shows its focus and none
 * is under the phone's bottom bar (WCAG 2.2 2.4.11: the page scrolls it clear, `scroll-padding-bottom`).
 */
const walkToEnd = async (page: Page, max = 60) => {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (f.tag === "body" || (seen.length > 0 && f.text === "Skip to main content")) return seen;
    expect(f.visible, `focus on <${f.tag}> "${f.text}" is visible`).toBe(true);
    expect(f.covered, `focus on <${f.tag}> "${f.text}" is not under the bottom bar`).toBe(false);
    seen.push(f.text);
  }
  throw new Error(`the page's end was not reached with ${max} presses of Tab: ${seen.join(", ")}`);
};

/** After a navigation, focus is on the new page's heading and the document title names the page. */
const landedOn = async (page: Page, url: RegExp, heading: string) => {
  await expect(page).toHaveURL(url);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeFocused();
  await expect(page).toHaveTitle(`${heading} · Mutiny Wallet`);
};

test("keyboard only: welcome to a new wallet, receive and copy the address, send, settings", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();

  // The first stop is the skip link, shown when focused; it leads past the navigation.
  await tabTo(page, "link", "Skip to main content", { max: 1 });
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeInViewport();
  await tabTo(page, "button", "New wallet");
  await page.keyboard.press("Enter");
  // A new wallet is offered a nostr profile first; the owner skips it.
  await landedOn(page, /\/newprofile$/, "Create your profile");
  await tabTo(page, "button", "Skip");
  await page.keyboard.press("Enter");
  await landedOn(page, /\/$/, "Home");
  // Home shows the moment the profile step is skipped and acts once its new wallet exists.
  await walletMade(page);
  // On a short phone screen, every control of home shows clear of the bottom bar as focus reaches it.
  await page.setViewportSize({ width: 360, height: 480 });
  const stops = await walkToEnd(page);
  expect(stops).toContain("Send");
  await page.setViewportSize({ width: 390, height: 844 });

  // Home's tabs: one tab stop, arrows move between them and select them.
  await tabTo(page, "tab", "Just me");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Friends" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Friends" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Just me" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Just me" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Friends" })).toHaveAttribute("tabindex", "-1");

  // Receive (the actions come right after the balance, before the history): show the address and copy it.
  await tabTo(page, "link", "Receive", { back: true, max: 6 });
  await page.keyboard.press("Enter");
  await landedOn(page, /\/receive$/, "Receive bitcoin");
  await tabTo(page, "radio", "Lightning or on-chain (payer chooses)");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio", { name: "On-chain only" })).toBeChecked();
  await tabTo(page, "button", "Show address");
  await page.keyboard.press("Enter");
  const address = await page.getByTestId("receive-address").getAttribute("title");
  expect(address).toMatch(/^bcrt1q/);
  await tabTo(page, "button", "Copy address");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: /^(Copied|Copy address)$/ })).toBeFocused();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  // Back home, then Send: from home's top (its heading, where arriving puts focus) Send is at most five
  // presses of Tab away, past the settings link, the backup notice and the balance. Then paste the copied
  // address with the Paste button.
  await tabTo(page, "link", "Home", { back: true });
  await page.keyboard.press("Enter");
  await landedOn(page, /\/$/, "Home");
  await tabTo(page, "link", "Send", { max: 5 });
  await page.keyboard.press("Enter");
  await landedOn(page, /\/send$/, "Send bitcoin");
  await tabTo(page, "button", "Paste");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Address, invoice, lightning address or LNURL")).toHaveValue(address ?? "");
  await tabTo(page, "textbox", "Amount (sats)");
  await page.keyboard.type("1000");
  await expect(page.getByRole("alert")).toContainText("enough balance");
  await expect(page.getByRole("button", { name: "Confirm send" })).toBeDisabled();

  // Settings: the backup's words open on Space; a dialog opens on its first field and Escape closes it.
  await tabTo(page, "link", "Home", { back: true });
  await page.keyboard.press("Enter");
  await landedOn(page, /\/$/, "Home");
  await tabTo(page, "link", "Settings");
  await page.keyboard.press("Enter");
  await landedOn(page, /\/settings$/, "Settings");
  await tabTo(page, "link", "Backup");
  await page.keyboard.press("Enter");
  await landedOn(page, /\/settings\/backup$/, "Back up your wallet");
  await tabTo(page, "button", "Show the 12 words");
  await page.keyboard.press("Space");
  await expect(page.getByRole("list", { name: "Seed words" }).getByRole("listitem")).toHaveCount(12);
  await tabTo(page, "checkbox", "I have written down my 12 words in order.");
  await page.keyboard.press("Space");
  await expect(
    page.getByRole("checkbox", { name: "I have written down my 12 words in order." }),
  ).toBeChecked();

  await tabTo(page, "link", "Back", { back: true });
  await page.keyboard.press("Enter");
  await landedOn(page, /\/settings$/, "Settings");
  await tabTo(page, "link", "Emergency kit");
  await page.keyboard.press("Enter");
  await landedOn(page, /\/settings\/emergencykit$/, "Emergency kit");
  await tabTo(page, "button", "Save state as file");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByLabel("Password")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByRole("button", { name: "Save state as file" })).toBeFocused();
});
