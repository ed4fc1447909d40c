import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import {
  createWallet,
  deleteEverything,
  expect,
  fundOnchain,
  importStateFile,
  saveStateFile,
  test,
} from "./fixtures";
import { openSend } from "./steps";

/**
 * Servers that lie about money. Each test points its wallet at its own scope of the world's hostile
 * Esplora (`/hostile/<scope>`), so the lies reach no other test; the world is funded and mined honestly.
 */
const PAYEE = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

const hostileWallet = async (page: Page, esplora: string, scope: string) => {
  await page.addInitScript(
    (url) => localStorage.setItem("USER_SETTINGS_esplora", url),
    `${esplora}/hostile/${scope}`,
  );
  await createWallet(page);
};

const lie = (esplora: string, scope: string, mode: string | null, options: Record<string, unknown> = {}) =>
  postJson(esplora, "/hostile", { service: "esplora", scope, mode, ...options });

// These mine, sync and pay on the run's chain on two busy cores.
test.describe.configure({ timeout: 180_000 });

test("a link whose amount disagrees with its invoice's is refused and nothing leaves", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  await fundOnchain(page, esplora, 200_000);
  const { bolt11 } = (await postJson(esplora, "/ln/invoice", { amount_sats: 50_000 })) as { bolt11: string };
  // Shows 1,000 sats; its invoice asks 50,000.
  const link = `bitcoin:${PAYEE}?amount=0.00001&lightning=${bolt11}`;
  await page.goto(`/send?to=${encodeURIComponent(link)}`);
  await expect(page.getByRole("alert")).toContainText("two different amounts");
  await expect(page.getByRole("button", { name: "Confirm send" })).toBeDisabled();
  await page.goto("/");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("onchain-balance")).toHaveText("200,000 sats");
  await expect(page.getByRole("button", { name: /Sent/ })).toHaveCount(0);
});

test("a fee spike asks a second confirmation stating the fee, and an absurd rate is refused", async ({
  page,
  esplora,
}) => {
  const scope = `fees-${test.info().workerIndex}-${Date.now()}`;
  await hostileWallet(page, esplora, scope);
  await fundOnchain(page, esplora, 200_000);
  try {
    await lie(esplora, scope, "fee-spike", { rate: 400 });
    await openSend(page, PAYEE, 10_000);
    await expect(page.getByTestId("send-fee")).toBeVisible();
    await page.getByRole("button", { name: "Confirm send" }).click();
    const ask = page.getByRole("dialog", { name: "A high fee" });
    await expect(ask).toContainText("more than a tenth of the amount");
    // Cancelled: nothing leaves.
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect(ask).toBeHidden();
    await expect(page.getByRole("dialog", { name: "Sent" })).toHaveCount(0);

    // Confirmed a second time: it pays exactly the fee it stated.
    await page.getByRole("button", { name: "Confirm send" }).click();
    const stated =
      (await ask.getByRole("button", { name: /Pay .* sats in fees and send/ }).textContent()) ?? "";
    const feeSats = stated.match(/Pay ([\d,]+) sats/)?.[1];
    expect(Number(feeSats?.replaceAll(",", ""))).toBeGreaterThan(5_000);
    await ask.getByRole("button", { name: /Pay .* sats in fees and send/ }).click();
    await expect(page.getByRole("dialog", { name: "Sent" })).toContainText(`${feeSats} sats`);
    // Closing the result leaves no filled form to pay a second time: the wallet is back home.
    await page.getByRole("dialog", { name: "Sent" }).getByRole("button", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Confirm send" })).toHaveCount(0);

    // A rate no real fee reaches is refused outright (on the next block, when the wallet asks again).
    await lie(esplora, scope, "fee-spike", { rate: 5000 });
    await postJson(esplora, "/mine", { blocks: 1 });
    await page.goto("/");
    await page.getByRole("button", { name: "Sync now" }).click();
    await openSend(page, PAYEE, 10_000);
    await expect(page.getByRole("alert")).toContainText("5,000 sat/vB");
    await expect(page.getByRole("button", { name: "Confirm send" })).toBeDisabled();
  } finally {
    await lie(esplora, scope, null);
  }
});

test("a broadcast answered with a page instead of the txid records nothing, and the export still imports", async ({
  page,
  esplora,
}, info) => {
  // Mining, syncs, and a save and import that each stretch the file's password, on two busy cores.
  test.setTimeout(180_000);
  const scope = `broadcast-${test.info().workerIndex}-${Date.now()}`;
  await hostileWallet(page, esplora, scope);
  await fundOnchain(page, esplora, 100_000);
  try {
    await lie(esplora, scope, "broadcast-lie");
    await openSend(page, PAYEE, 20_000);
    await expect(page.getByTestId("send-fee")).toBeVisible();
    await page.getByRole("button", { name: "Confirm send" }).click();
    await expect(page.getByRole("dialog", { name: "Payment failed" })).toContainText(
      "did not confirm the broadcast",
    );
  } finally {
    await lie(esplora, scope, null);
  }
  await page.goto("/");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("onchain-balance")).toHaveText("100,000 sats");
  await expect(page.getByRole("button", { name: /Sent/ })).toHaveCount(0);

  // The log is one its own import takes back.
  const { file, text } = await saveStateFile(page, info, "correct horse battery staple");
  expect(JSON.parse(text)).toMatchObject({ format: "mutiny-state" });
  await deleteEverything(page);
  await importStateFile(page, file, "correct horse battery staple");
  await expect(page.getByTestId("onchain-balance")).toHaveText("100,000 sats");
});

test("a lightning address that cannot be read keeps its reason in view when an amount is typed", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  // The world's LNURL service knows no such name: it refuses in its own words.
  const { address } = await postJson(esplora, "/lnurl/pay", {
    name: `known-${test.info().workerIndex}-${Date.now()}`,
    min_sats: 1_000,
    max_sats: 50_000,
  });
  const unknown = `nobody-${Date.now()}@${String(address).split("@")[1]}`;
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(unknown);
  await expect(page.getByRole("alert")).toContainText("Unknown user");
  await page.getByLabel("Amount (sats)").fill("10");
  // The amount changed, not what could not be read: the reason stays beside the disabled button.
  await expect(page.getByRole("button", { name: "Confirm send" })).toBeDisabled();
  await expect(page.getByRole("alert")).toContainText("Unknown user");
});

test("a server's long unbroken words wrap inside the failure dialog at 320 px", async ({ page, esplora }) => {
  const scope = `wrap-${test.info().workerIndex}-${Date.now()}`;
  await page.setViewportSize({ width: 320, height: 640 });
  await hostileWallet(page, esplora, scope);
  await fundOnchain(page, esplora, 100_000);
  try {
    await lie(esplora, scope, "broadcast-refused", { text: "X".repeat(400) });
    await openSend(page, PAYEE, 20_000);
    await expect(page.getByTestId("send-fee")).toBeVisible();
    await page.getByRole("button", { name: "Confirm send" }).click();
    const dialog = page.getByRole("dialog", { name: "Payment failed" });
    await expect(dialog).toContainText("XXXXXXXXXX");
    const fits = await dialog.evaluate((d) => {
      const box = d.getBoundingClientRect();
      return {
        dialog: d.scrollWidth <= d.clientWidth && box.right <= window.innerWidth,
        text: [...d.querySelectorAll("p")].every((p) => p.scrollWidth <= p.clientWidth),
        page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      };
    });
    expect(fits).toEqual({ dialog: true, text: true, page: true });
  } finally {
    await lie(esplora, scope, null);
  }
});
