import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page, Route } from "@playwright/test";
import { ROUTES_BUILT } from "../src/screens/routes";
import { postJson } from "../harness/http";
import { ACTIVITY_PAGE } from "../src/projections/activity";
import { expect, type FundedWallet, navigate, secondDevice, TIPS, test, tipSats } from "./funded";

/** The catalogue's words in `lang`, as a person reads them on the buttons. */
const words = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), "utf8"));

/**
 * Every route, as a person sees it on a phone (390×844) and a laptop (1280×800), in English and Deutsch, on a
 * funded wallet (`./funded.ts`: two channels, one opening, ecash, Plus, contacts, a chat, a wallet-connect
 * request): each route shows its own page (its heading, never Not found or the error screen), has no
 * accessibility violations (axe-core, WCAG 2.1 AA and best practice), nothing wider than the screen at
 * 320 px, and a screenshot compared with the committed baseline so a layout break shows in review.
 * The wallet is made once per worker; both languages walk it in turn, each route once on the phone (where
 * it is also measured at 320 px) and once on the laptop. axe checks every route on the phone in both
 * languages and on the laptop in English (the same page beside the side navigation).
 */
test.describe.configure({ mode: "default" });

/** What a full-page screenshot changes of the page: the bottom action bar drawn where the page ends. */
const SCREENSHOT_CSS = new URL("./screenshot.css", import.meta.url).pathname;

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** Each route's own heading (its h1), a catalogue key or, for a chat, the contact's name. */
const HEADINGS: Record<string, string | ((w: FundedWallet) => string)> = {
  "/": "home.title",
  "/setup": "setup.title",
  "/receive": "receive.title",
  "/send": "send.title",
  "/search": "nav.search",
  "/scanner": "scanner.title",
  "/redeem": "redeem.title",
  "/settings": "settings.title",
  "/settings/backup": "settings.backup.title",
  "/settings/restore": "settings.restore.title",
  "/setup/restore": "settings.restore.title",
  "/settings/currency": "settings.currency.title",
  "/settings/language": "settings.language.title",
  "/settings/emergencykit": "settings.emergency_kit.title",
  "/settings/channels": "settings.channels",
  "/settings/admin": "settings.admin",
  "/swap": "swap.title",
  "/settings/encrypt": "settings.encrypt.title",
  "/settings/servers": "settings.servers",
  "/chat/:id": (w) => w.annName,
  "/request/:id": "chat.request_title",
  "/newprofile": "profile.create_title",
  "/profile": "profile.title",
  "/editprofile": "profile.edit",
  "/importprofile": "profile.import_title",
  "/settings/importprofile": "profile.import_title",
  "/settings/nostrkeys": "nostr_keys.title",
  "/settings/connections": "settings.connections.title",
  "/feedback": "feedback.title",
  "/settings/plus": "settings.plus.title",
  "/settings/lightningaddress": "settings.lightningaddress.title",
  "/settings/federations": "federations.title",
  "/addfederation": "add_federation.title",
  "/swaplightning": "swap_lightning.title",
  "/transfer": "transfer.title",
  "/no/such/page": "not_found.title",
};

/** A route's path on the funded wallet: the chat and the request are Ann's. */
const pathOf = (route: string, w: FundedWallet) => route.replace(":id", encodeURIComponent(w.annId));

/** The name of a route's screenshot. */
const shotName = (route: string) =>
  route === "/" ? "home.png" : `${route.slice(1).replace("/:id", "").replaceAll("/", "_")}.png`;

/** Every route of the release with a wallet (the welcome screens are checked before one exists). */
const WALLET_ROUTES = [
  ...ROUTES_BUILT.filter((r) => r !== "/setup" && r !== "/setup/restore"),
  "/no/such/page",
];

const NARROW = { width: 320, height: 640 };
/** The smallest common phone: home is checked there too (balance, actions, the start of the history). */
const SMALL_PHONE = { width: 360, height: 740 };
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * What a route shows once its live data is in (the walk waits for it before looking): home's pending
 * wallet-connect request, the chat's four messages, the channels, the mint, the connection, the membership
 * and its lightning address.
 */
const ready = (page: Page, route: string, t: Record<string, string>): Locator | null => {
  switch (route) {
    case "/":
      return page.locator(".count-badge");
    case "/chat/:id":
      // The owner's message, Ann's two and her request.
      return page.locator("main").getByRole("listitem").nth(3);
    case "/settings/channels":
      return page.getByText(`${t["channels.never_opened"]} (1)`);
    case "/settings/federations":
      return page.getByTestId("federation-balance");
    case "/settings/connections":
      return page.getByText("Careful app").first();
    case "/settings/plus":
      // The member's lightning address, which the address service answers after the membership is drawn.
      return page.getByText((t["settings.plus.member_address"] ?? "").split("{address}")[0] ?? "");
    default:
      return null;
  }
};

/**
 * Opens `route` as the app's own links do (no reload: the wallet keeps running) and waits until its own
 * page has drawn: one page with the route's heading (never Not found, never the error screen), nothing
 * loading, its live data in, fonts ready.
 */
const open = async (page: Page, route: string, lang: string, w: FundedWallet | null) => {
  const t = words(lang);
  const path = w ? pathOf(route, w) : route;
  await navigate(page, path);
  const main = page.locator("main:visible");
  await expect(main, route).toHaveCount(1);
  const heading = HEADINGS[route];
  const name = typeof heading === "function" ? (w ? heading(w) : "") : t[heading ?? ""];
  const h1 = main.locator("h1");
  await expect(h1, route).toHaveCount(1);
  // The Not found page and the error screen (src/ui/ErrorBoundary.tsx) are a main with their own h1.
  if (route !== "/no/such/page")
    await expect.soft(h1, `${route} is not the Not found page`).not.toHaveText(t["not_found.title"] ?? "");
  await expect.soft(h1, `${route} is not the error screen`).not.toHaveText(t["error.oh_no"] ?? "");
  await expect.soft(h1, `${route} shows its own page`).toHaveText(name ?? "");
  await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
  const data = w ? ready(page, route, t) : null;
  if (data)
    await expect.soft(data.first(), `${route} shows the wallet's data`).toBeVisible({ timeout: 60_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
};

/** Waits until home is settled after a load: the lightning node started and the progress gone. */
const settleHome = async (page: Page, lang: string) => {
  await expect(page.getByRole("tab").first()).toBeVisible();
  await expect(page.locator(".home-progress")).toHaveCount(0, { timeout: 120_000 });
  await expect(page.getByText(words(lang)["home.lightning_starting"] ?? "")).toHaveCount(0, {
    timeout: 120_000,
  });
};

/**
 * The page's accessibility violations. axe runs in the page itself (legacy mode: no blank page opened to
 * merge each run's frames, as the app has none) and details only the violations.
 */
const violationsOf = async (page: Page) => {
  const r = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(AXE_TAGS)
    .options({ resultTypes: ["violations"] })
    .analyze();
  return r.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  }));
};

/** A catalogue text with its `{placeholders}` as a pattern: the words around them, whatever they hold. */
const withDate = (text: string | undefined) =>
  new RegExp(`^${(text ?? "").replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, ".+")}$`);

/**
 * What is on screen that differs from run to run: addresses, codes, keys, QR codes, times and dates, the
 * version, this run's ports, invoices.
 */
const masks = (page: Page, lang: string) => [
  page.getByText(/127\.0\.0\.1:\d+/),
  page.getByText(/lnbcrt\w{20,}/),
  page.getByText(/npub1\w{20,}/),
  page.getByText(withDate(words(lang)["settings.plus.renews"])),
  // The mint's shutdown, counted down each minute.
  page.getByText(withDate(words(lang)["home.status.ending"])),
  page.locator("input[id^='server-']"),
  page.locator("code"),
  page.locator("time"),
  page.locator(".qr"),
  page.locator(".version"),
  page.locator(".activity-time"),
  page.locator("[data-dynamic]"),
  page.locator("video"),
];

/** How wide the page is, and the innermost elements that stick out of the screen (to name in a failure). */
const widthOverflow = (page: Page) =>
  page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    // An element that sticks out, or whose text runs out of it (a long word in a narrow column).
    const wide = [...document.querySelectorAll("body *")].filter(
      (e) =>
        e.getBoundingClientRect().right > viewport + 0.5 ||
        e.getBoundingClientRect().left + e.scrollWidth > viewport + 0.5,
    );
    const innermost = wide.filter((e) => !wide.some((o) => o !== e && e.contains(o)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      viewport,
      culprits: innermost
        .slice(0, 3)
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).replaceAll(" ", ".")}` : ""}`,
        ),
    };
  });

test("every route of the release has its own heading to check", () => {
  for (const route of [...ROUTES_BUILT, "/no/such/page"]) {
    const heading = HEADINGS[route];
    expect(heading, route).toBeDefined();
    if (typeof heading === "string") expect(words("en")[heading], heading).toBeDefined();
  }
});

/** The wallet's own views: its state file from the emergency kit, folded in Node by `npm run replay`. */
const ownViews = async (page: Page, file: string) => {
  const password = "figures are the wallet's own";
  await navigate(page, "/settings/emergencykit");
  await page.getByRole("button", { name: "Save state as file" }).click();
  await page.getByLabel("Password").fill(password);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  await (await downloading).saveAs(file);
  const json = execFileSync("npx", ["tsx", "scripts/replay.ts", file], {
    env: { ...process.env, WALLET_PASSWORD: password },
    encoding: "utf8",
  });
  return JSON.parse(json) as {
    balance: Record<
      | "confirmed"
      | "unconfirmed"
      | "lightning"
      | "lightning_pending"
      | "lightning_sendable"
      | "federation"
      | "total",
      string
    >;
    channel_totals: Record<"balance" | "pending", string>;
    activity: {
      items: {
        kind: string;
        dropped: boolean;
        inbound: boolean;
        amount_sats: string;
        labels: string[];
        last_updated: number;
        seen_at: number;
      }[];
      total: number;
    };
  };
};

/** An amount as home and the channels screen write it in English: "120,000 sats". */
const satsText = (n: string) => `${BigInt(n).toLocaleString("en-US")} sats`;

/** A fiat amount as written ("$1,195.55"), in cents. */
const cents = async (l: Locator) => BigInt(((await l.textContent()) ?? "").replace(/[^0-9]/g, "") || "0");

test("on a funded wallet the money a person reads is the wallet's own: opening pending, a failed open not spent, what can leave, fiat rows that add up", async ({
  funded,
}, info) => {
  test.setTimeout(300_000);
  const page = funded.page;
  await page.setViewportSize(VIEWPORTS.phone);
  const views = await ownViews(page, info.outputPath("mutiny-state.json"));
  // The fixture's opening channel (its funding waits in the mempool) is pending, not spendable.
  expect(BigInt(views.balance.lightning_pending)).toBeGreaterThan(110_000n);
  expect(BigInt(views.balance.lightning_sendable)).toBeLessThan(BigInt(views.balance.lightning));

  // Home: lightning is what the open channels hold, the opening one pending beside it.
  await navigate(page, "/");
  await expect(page.getByTestId("lightning-balance")).toHaveText(satsText(views.balance.lightning));
  await expect(page.getByTestId("lightning-pending-badge")).toHaveText(
    `Pending: ${satsText(views.balance.lightning_pending)}`,
  );
  await expect(page.getByTestId("total-balance")).toHaveText(satsText(views.balance.total));
  // The mint shutting down: the status line at the top of home says so, before the balance, and the balance
  // marks its ecash at risk.
  const ending = page.getByRole("alert", { name: "A federation is shutting down" });
  await expect(ending).toContainText(/^Local World Mint stops serving in 2 d 2\d h \d+ min\. Move my ecash$/);
  const card = page.getByRole("region", { name: "Balance" });
  expect((await ending.boundingBox())?.y ?? 0).toBeLessThan((await card.boundingBox())?.y ?? 0);
  const ecash = card.getByTestId("custody-label");
  await expect(ecash.locator(".balance-amount")).toHaveText(
    `${BigInt(views.balance.federation).toLocaleString("en-US")} e-sats`,
  );
  await expect(ecash.getByTestId("ecash-at-risk")).toHaveText("Shutting down: move it out");
  // The open whose funding was refused: one row, as not opened, and no debit.
  expect(views.activity.items.filter((i) => i.kind === "ChannelOpen" && i.dropped)).toHaveLength(1);
  const refused = page.getByRole("button", { name: /Nothing was spent.*Channel not opened/ });
  await expect(refused).toHaveCount(1);
  await expect(refused.locator(".activity-amount")).toHaveText("100,000 sats");
  await refused.click();
  const details = page.getByRole("dialog", { name: "Channel not opened" });
  await expect(details.getByText("nothing left your wallet")).toBeVisible();
  await expect(details.getByRole("link", { name: "View in explorer" })).toHaveCount(0);
  await expect(details.getByText("Fee")).toHaveCount(0);
  await details.getByRole("button", { name: "Close" }).click();

  // In fiat (BTC while the world's price feed is away), the rows add up to the total.
  const total = page.getByTestId("total-balance");
  try {
    await total.click();
    await expect(total).not.toHaveText(/sats$/);
    const rows = [
      page.getByTestId("lightning-balance"),
      page.getByTestId("lightning-pending-badge").locator("span").first(),
      page.getByTestId("onchain-balance"),
      card.getByTestId("custody-label").locator(".balance-amount"),
    ];
    let sum = 0n;
    for (const row of rows) sum += await cents(row);
    expect(sum).toBe(await cents(total));
  } finally {
    // Back to sats, as the walk's screenshots show it (fiat, hidden, sats).
    await expect(async () => {
      if (!/sats$/.test((await total.textContent()) ?? "")) await total.click();
      await expect(total).toHaveText(/sats$/, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  }
  await expect(total).toHaveText(satsText(views.balance.total));

  // On a 360×740 phone, home shows the balance, the actions and the start of the history without scrolling:
  // the history's tabs and the first line of its first row stand above the bottom bar.
  await page.setViewportSize(SMALL_PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  const bar = page.getByRole("navigation", { name: "Actions" });
  await expect(total).toBeInViewport({ ratio: 1 });
  for (const action of ["Send", "Receive", "Scan"])
    await expect(bar.getByRole("link", { name: action })).toBeInViewport({ ratio: 1 });
  const barTop = (await bar.boundingBox())?.y ?? 0;
  const first = await page
    .getByRole("list", { name: "Activity" })
    .getByRole("listitem")
    .first()
    .boundingBox();
  expect(first, "the history's first row is drawn").not.toBeNull();
  const tabs = await page.getByRole("tablist").boundingBox();
  expect(
    (tabs?.y ?? 0) + (tabs?.height ?? 0),
    "the history's tabs end above the bottom bar",
  ).toBeLessThanOrEqual(barTop);
  expect(
    (first?.y ?? 0) + (first?.height ?? 0),
    "the history's first row stands wholly above the bottom bar",
  ).toBeLessThanOrEqual(barTop);
  await expect.soft(page).toHaveScreenshot(["en", "phone-360x740", "home.png"], { mask: masks(page, "en") });
  await page.setViewportSize(VIEWPORTS.phone);

  // The channels screen: "Can send" is what can leave, the opening channel pending, the refused one never opened.
  await navigate(page, "/settings/channels");
  const figure = (term: string) =>
    page.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");
  await expect(figure("Can send")).toHaveText(satsText(views.channel_totals.balance));
  expect(views.channel_totals.balance).toBe(views.balance.lightning_sendable);
  await expect(figure("Pending (channels opening)")).toHaveText(satsText(views.channel_totals.pending));
  expect(views.channel_totals.pending).toBe(views.balance.lightning_pending);
  await expect(page.getByText("Opening (1)")).toBeVisible();
  await expect(page.getByText("Never opened (1)")).toBeVisible();

  // Send: "up to" is what can leave now; an invoice for a sat more is refused on the form, in words.
  const esplora = process.env.HARNESS_ESPLORA ?? "";
  const sendable = BigInt(views.balance.lightning_sendable);
  const { bolt11 } = (await postJson(esplora, "/ln/invoice", {
    amount_sats: Number(sendable + 1n),
    description: "one sat too many",
  })) as { bolt11: string };
  await navigate(page, `/send?to=${encodeURIComponent(bolt11)}`);
  await expect(
    page.getByText(`Lightning · up to ${satsText(views.balance.lightning_sendable)}`),
  ).toBeVisible();
  await expect(
    page.getByText(`At most ${satsText(views.balance.lightning_sendable)} can leave over lightning now`),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm send" })).toBeDisabled();

  // The member's lightning address, what friends pay: on the profile and on Receive.
  await navigate(page, "/profile");
  await expect(page.getByTestId("plus-address")).toHaveText(funded.address);
  await navigate(page, "/receive");
  await expect(page.getByTestId("plus-address")).toHaveText(funded.address);
  await navigate(page, "/");
});

test("on a funded wallet with a long history, home lists it newest first, row for row the wallet's own, down to its oldest", async ({
  funded,
}, info) => {
  test.setTimeout(300_000);
  const page = funded.page;
  await page.setViewportSize(VIEWPORTS.phone);
  const views = await ownViews(page, info.outputPath("long-history.json"));
  const { items, total } = views.activity;
  // The fixture's 36 tips and the rest: more than a screen of rows, all within what home lists.
  expect(total).toBeGreaterThanOrEqual(40);
  expect(total, "home lists the whole history").toBeLessThanOrEqual(ACTIVITY_PAGE);
  expect(items).toHaveLength(total);
  // The wallet's own order is newest first: pending rows, then by time.
  const when = items.map((i) =>
    i.last_updated === 0 ? Number.POSITIVE_INFINITY : i.last_updated || i.seen_at,
  );
  for (let k = 1; k < when.length; k++)
    expect(when[k], `row ${k + 1} is not newer than row ${k}`).toBeLessThanOrEqual(when[k - 1] ?? 0);

  await navigate(page, "/");
  const list = page.getByRole("list", { name: "Activity" });
  const rows = list.getByRole("listitem");
  await expect(rows).toHaveCount(total);
  // Each row's amount, as a person reads it, is the view's row at the same place.
  const amounts = items.map((i) => {
    const amount = `${BigInt(i.amount_sats).toLocaleString("en-US")} ${i.kind === "Ecash" ? "e-sats" : "sats"}`;
    return i.dropped ? amount : `${i.inbound ? "+" : "-"}${amount}`;
  });
  await expect(rows.locator(".activity-amount")).toHaveText(amounts);
  // The tips read newest first: tip 36 above tip 35, down to tip 1, each with its amount.
  const labels = (await rows.locator(".activity-label").allTextContents()).map((l) => l.trim());
  const tips = labels.filter((l) => /^tip \d+$/.test(l));
  expect(tips).toEqual(Array.from({ length: TIPS }, (_, k) => `tip ${TIPS - k}`));
  const newest = rows.filter({ hasText: `tip ${TIPS}` });
  await expect(newest.locator(".activity-amount")).toHaveText(`+${tipSats(TIPS)} sats`);
  expect(labels.indexOf(`tip ${TIPS}`)).toBeLessThan(labels.indexOf("tip 1"));
  // Scrolling down reaches the oldest row, last in the wallet's own view.
  const oldest = rows.last();
  await oldest.scrollIntoViewIfNeeded();
  await expect(oldest).toBeInViewport();
  await expect(oldest.locator(".activity-amount")).toHaveText(amounts.at(-1) ?? "");
  await page.evaluate(() => window.scrollTo(0, 0));
});

test("on a funded wallet whose storage server cannot be reached, home says in one line at its top what still works, and the money a person reads is still the wallet's own", async ({
  esplora,
  funded,
}, info) => {
  // The device lock runs out a minute after its last refresh; then the node starts again once the server
  // answers, on two busy cores.
  test.setTimeout(420_000);
  const page = funded.page;
  const en = words("en");
  await page.setViewportSize(VIEWPORTS.phone);
  const views = await ownViews(page, info.outputPath("before-storage-away.json"));
  await navigate(page, "/");
  const status = page.locator(".home-status");
  const card = page.getByRole("region", { name: "Balance" });
  const paused = status.getByRole("status").filter({ hasText: en["home.lightning_paused"] ?? "" });
  // The notices waiting behind home's line (the mint's, the backup's): the storage's comes on top of them.
  const more = status.getByRole("button", { name: /^\d+ more$/ });
  await expect(more).toBeVisible();
  const behind = Number(((await more.textContent()) ?? "").replace(/\D/g, ""));
  // Only this wallet's requests to its storage server fail, as if the server were gone: no other test's.
  const storage = `${new URL("/storage", esplora).href}/**`;
  const away = (route: Route) => route.abort("connectionrefused");
  await funded.context.route(storage, away);
  try {
    await expect(paused).toBeVisible({ timeout: 180_000 });
    // One line, at the top of home above the balance, with one action; the others wait behind it.
    await expect(status.locator(":scope > [role]")).toHaveCount(1);
    await expect(paused).toContainText(`${en["home.lightning_paused"]} ${en["home.lightning_restart"]}`);
    await expect(paused.getByRole("button")).toHaveCount(1);
    await expect(paused.getByRole("button", { name: en["home.lightning_restart"] })).toBeVisible();
    await expect(more).toHaveText(`${behind + 1} more`);
    expect((await paused.boundingBox())?.y ?? 0).toBeLessThan((await card.boundingBox())?.y ?? 0);
    // The money a person reads is the wallet's own, lightning included: nothing is lost while it is paused.
    await expect(page.getByTestId("lightning-balance")).toHaveText(satsText(views.balance.lightning));
    await expect(page.getByTestId("lightning-pending-badge")).toHaveText(
      `Pending: ${satsText(views.balance.lightning_pending)}`,
    );
    await expect(page.getByTestId("onchain-balance")).toHaveText(
      satsText((BigInt(views.balance.confirmed) + BigInt(views.balance.unconfirmed)).toString()),
    );
    await expect(card.getByTestId("custody-label").locator(".balance-amount")).toHaveText(
      `${BigInt(views.balance.federation).toLocaleString("en-US")} e-sats`,
    );
    await expect(page.getByTestId("total-balance")).toHaveText(satsText(views.balance.total));
    // Still paused: the line stays while the server is away.
    await expect(paused).toBeVisible();
  } finally {
    await funded.context.unroute(storage, away);
  }
  // The server answers again: the node starts by itself and the line clears; the mint's notice is back on top.
  await expect(paused).toHaveCount(0, { timeout: 180_000 });
  await expect(page.getByRole("alert", { name: "A federation is shutting down" })).toBeVisible();
  await expect(status.locator(":scope > [role]")).toHaveCount(1);
  await expect(more).toHaveText(`${behind} more`);
  await expect(page.getByTestId("lightning-balance")).toHaveText(satsText(views.balance.lightning));
  await expect(page.getByTestId("total-balance")).toHaveText(satsText(views.balance.total));
  // As the walks after find it: lightning running, its channel online.
  await expect(page.getByText(en["home.lightning_starting"] ?? "")).toHaveCount(0, { timeout: 120_000 });
  await navigate(page, "/settings/channels");
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 120_000 });
  await navigate(page, "/");
});

for (const lang of ["en", "de"] as const) {
  test(`every route in ${lang} on a funded wallet: its own page, no accessibility violations, nothing overflows at 320 px, screenshots match`, async ({
    page,
    funded,
  }) => {
    test.setTimeout(900_000);
    // Before a wallet exists: the welcome screens, in a browser of their own.
    await page.addInitScript((l) => localStorage.setItem("i18nextLng", l), lang);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/");
    await expect(page).toHaveURL(/\/setup$/);
    for (const route of ["/setup", "/setup/restore"]) {
      await open(page, route, lang, null);
      expect.soft(await violationsOf(page), `${route} (${lang}, phone)`).toEqual([]);
      await expect
        .soft(page)
        .toHaveScreenshot([lang, "phone", `${route.slice(1).replaceAll("/", "_")}.png`], {
          fullPage: true,
          mask: masks(page, lang),
        });
    }
    await page.setViewportSize(NARROW);
    await open(page, "/setup", lang, null);
    const welcome = await widthOverflow(page);
    expect.soft(welcome.scrollWidth, `/setup (${lang}) at 320 px`).toBeLessThanOrEqual(welcome.viewport);
    // Its app stops: the two cores go to the funded wallet.
    await page.close();

    // The funded wallet, in this language: every route on a phone (and at 320 px while it is there), then on
    // a laptop.
    const wallet = funded.page;
    await wallet.evaluate((l) => localStorage.setItem("i18nextLng", l), lang);
    await wallet.setViewportSize(VIEWPORTS.phone);
    await wallet.goto("/");
    await settleHome(wallet, lang);
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      for (const route of WALLET_ROUTES) {
        await wallet.setViewportSize(viewport);
        await open(wallet, route, lang, funded);
        // axe on every route on the phone in both languages, and on the laptop (the same page beside the
        // side navigation) in English.
        if (size === "phone" || lang === "en") {
          expect.soft(await violationsOf(wallet), `${route} (${lang}, ${size})`).toEqual([]);
        }
        await expect.soft(wallet).toHaveScreenshot([lang, size, shotName(route)], {
          fullPage: true,
          mask: masks(wallet, lang),
          stylePath: SCREENSHOT_CSS,
        });
        if (size !== "phone") continue;
        // The narrowest phone: nothing is wider than the screen.
        await wallet.setViewportSize(NARROW);
        const { scrollWidth, viewport: width, culprits } = await widthOverflow(wallet);
        expect
          .soft(
            scrollWidth,
            `${route} (${lang}) is ${scrollWidth} px wide at ${width} px: ${culprits.join(", ")}`,
          )
          .toBeLessThanOrEqual(width);
      }
    }
  });
}

test("the same words on a second device: the restore card's figures are the wallet's, each payment listed once", async ({
  browser,
  esplora,
  funded,
}, info) => {
  test.setTimeout(600_000);
  // The walks leave the wallet in German: back to English, where the steps read their buttons.
  await funded.page.evaluate(() => localStorage.setItem("i18nextLng", "en"));
  await funded.page.goto("/");
  await settleHome(funded.page, "en");
  const views = await ownViews(funded.page, info.outputPath("first-device.json"));
  const other = await secondDevice(browser, funded, esplora);
  try {
    await other.setViewportSize(VIEWPORTS.phone);
    // The channels the first device had (the open one and the opening one, not the one never opened),
    // holding what its lightning and its pending lightning add up to.
    const found = other.getByRole("region", { name: "Brought back from your storage server" });
    const held = BigInt(views.balance.lightning) + BigInt(views.balance.lightning_pending);
    await expect(found).toContainText(`2 channels holding ${satsText(held.toString())}`);
    // Lightning on the second device is the first's, and every payment shows once in the history.
    await expect(other.getByTestId("lightning-balance")).toHaveText(satsText(views.balance.lightning), {
      timeout: 120_000,
    });
    const restored = await ownViews(other, info.outputPath("second-device.json"));
    expect(restored.balance.lightning).toBe(views.balance.lightning);
    expect(restored.balance.lightning_pending).toBe(views.balance.lightning_pending);
    const rows = (v: typeof views) => v.activity.items.map((i) => JSON.stringify(i)).sort();
    expect(new Set(rows(restored)).size, "no payment is listed twice").toBe(rows(restored).length);
    await navigate(other, "/");
    await expect(other.getByTestId("lightning-pending-badge")).toHaveText(
      `Pending: ${satsText(views.balance.lightning_pending)}`,
    );
  } finally {
    await other.context().close();
  }
});
