/**
 * A person pays when the screen lets them: right after their channel opens, the instant home shows after a
 * reload, while the node is still reconnecting its channel, and while the LSP restarts. The app waits for
 * the channel (and says so) rather than refusing for a balance that is there; the channels page never
 * offers Force close on a channel that is coming back.
 */
import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { fundAndOpenChannel } from "./steps";

/** Pays an invoice of the world's node for `sats` from Send, at once; ends on the "Sent" dialog. */
const payAtOnce = async (page: Page, esplora: string, sats: number) => {
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: sats, description: "at once" });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText(sats.toLocaleString("en-US"));
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  // It may wait for the channel (a reload a moment ago), saying so; it never says the balance is short.
  await expect(sent.or(page.getByRole("alert"))).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText("You don't have enough balance")).toHaveCount(0);
  await expect(sent).toBeVisible();
  await sent.getByRole("link", { name: "Home" }).click();
};

test("pays right after its channel opens and the instant home shows after a reload", async ({
  page,
  esplora,
}) => {
  test.setTimeout(360_000);
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);
  // Right after the channel opened: no wait for it to show online.
  await payAtOnce(page, esplora, 5_000);

  for (let i = 0; i < 2; i++) {
    await page.reload();
    // The instant home shows (its Send link usable), as a person taps it.
    await expect(page.getByRole("link", { name: "Send" }).first()).toBeVisible();
    await payAtOnce(page, esplora, 3_000 + i);
  }

  // After a reload the channels page says the channel is connecting, and offers no Force close, until it is
  // online again.
  await page.goto("/settings/channels");
  await page.reload();
  await expect(page.getByText("1 channel")).toBeVisible();
  await expect(async () => {
    await expect(page.getByRole("button", { name: "Force close" })).toHaveCount(0);
    await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByRole("button", { name: "Close channel" })).toBeVisible();
});

/** How long the LSP stays down, as when its operator restarts it. */
const OUTAGE_S = 20;

/** Stops the world's LSP node; the world starts it again `OUTAGE_S` seconds later, whatever the app does. */
const restartLsp = (esplora: string) => postJson(esplora, "/ln/stop", { seconds: OUTAGE_S });

// The LSP stopping would break a payment of any test running beside this one: it runs after them, alone
// (its own project in playwright.config.ts).
test("pays while the LSP restarts, saying the channel is connecting, and never offers Force close meanwhile", {
  tag: "@lsp-restart",
}, async ({ page, esplora }) => {
  test.setTimeout(420_000);
  await createWallet(page);
  await fundAndOpenChannel(page, esplora);

  // The payee's invoice is in hand; the LSP goes down, and the person pays at once.
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: 7_000, description: "restart" });
  await restartLsp(esplora);
  const stopped = Date.now();
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText("7,000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  const confirmed = Date.now();
  await expect(page.getByRole("status").filter({ hasText: "Connecting to your channel…" })).toBeVisible();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent.or(page.getByRole("alert"))).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText("You don't have enough balance")).toHaveCount(0);
  await expect(sent).toBeVisible();
  test.info().annotations.push({
    type: "timing",
    description: `confirmed ${confirmed - stopped} ms after the LSP stopped; sent ${Date.now() - stopped} ms after`,
  });
  await sent.getByRole("link", { name: "Home" }).click();

  // Another restart: the channels page, open all through it, says the channel is connecting and never
  // offers Force close; the channel is online again once the LSP is back.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Lightning channels" }).click();
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 90_000 });
  await restartLsp(esplora);
  await expect(page.getByText("Connecting… (1)")).toBeVisible();
  const restarted = Date.now();
  const end = restarted + 60_000;
  while (!(await page.getByText("Online (1)").isVisible())) {
    expect(Date.now(), "the channel back online within a minute").toBeLessThan(end);
    await expect(page.getByRole("button", { name: "Force close" })).toHaveCount(0);
    await page.waitForTimeout(250);
  }
  test.info().annotations.push({
    type: "timing",
    description: `channels page online again ${Date.now() - restarted} ms after the LSP stopped`,
  });
  await expect(page.getByRole("button", { name: "Force close" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Close channel" })).toBeVisible();
});
