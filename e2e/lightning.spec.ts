import type { Page } from "@playwright/test";
import { createWallet, expect, test } from "./fixtures";

// These tests mine blocks on the run's one regtest chain and share its lightning node, so they take turns.
test.describe.configure({ mode: "serial" });

const post = async (base: string, path: string, body: unknown) => {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

const syncNow = async (page: Page) => {
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByRole("button", { name: "Sync now" })).toBeEnabled();
};

const fundOnchain = async (page: Page, esplora: string, sats: number) => {
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  await post(esplora, "/faucet", { address, sats });
  await post(esplora, "/mine", { blocks: 1 });
  await page.goto("/");
  await syncNow(page);
  await expect(page.getByTestId("onchain-balance")).toHaveText(`${sats.toLocaleString("en-US")} sats`);
};

test("swap on-chain funds into a channel with the LSP, see it, reload, close it and get the funds back", async ({
  page,
  esplora,
}) => {
  test.setTimeout(120_000);
  await createWallet(page);
  await fundOnchain(page, esplora, 300_000);

  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await expect(page).toHaveURL(/\/swap$/);
  await page.getByLabel("Amount (sats)").fill("99999");
  await page.getByRole("button", { name: "Open channel" }).click();
  await expect(page.getByRole("alert")).toContainText("at least 100,000 sats");
  await page.getByLabel("Amount (sats)").fill("200000");
  await expect(page.getByText(/Network fee: about \d+ sats/)).toBeVisible();
  await page.getByRole("button", { name: "Open channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Channel opening" });
  await expect(dialog).toContainText("200000");
  await dialog.getByRole("button", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Channel open").first()).toBeVisible();

  // Blocks until the funding transaction (broadcast by the node moments ago) has its confirmations.
  await expect(async () => {
    await post(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(page.getByRole("button", { name: /(19\d|200),\d{3} sats/ }).first()).toBeVisible({
      timeout: 2000,
    });
  }).toPass({ timeout: 45_000 });

  await page.goto("/settings/channels");
  await expect(page.getByText("1 channel")).toBeVisible();
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 20_000 });

  // Pay an invoice made by the world's node.
  const { bolt11 } = await post(esplora, "/ln/invoice", { amount_sats: 20_000, description: "coffee" });
  await page.goto("/send");
  await page.getByLabel("Bitcoin address").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText("20,000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible({ timeout: 30_000 });

  // Receive from it: the screen polls and turns to "Payment received" once paid.
  await page.goto("/receive");
  await page.getByLabel("Amount (sats, optional)").fill("5000");
  await page.getByRole("radio", { name: "Lightning only" }).check();
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  expect(invoice).toMatch(/^lnbcrt50u1/);
  const paid = await post(esplora, "/ln/pay", { bolt11: invoice });
  expect(paid.status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("5,000 sats arrived over lightning");
  await page.getByRole("link", { name: "Home" }).last().click();
  await expect(page.getByRole("button", { name: /Lightning.*5,000 sats/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /Lightning.*20,000 sats/ })).toBeVisible();

  // The node restores its channel from the browser's storage after a reload.
  await page.goto("/settings/channels");
  await page.reload();
  await expect(page.getByText("1 channel")).toBeVisible();
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Close channel" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Close channel" }).click();
  await expect(page.getByText("Closing the channel…")).toBeVisible();
  await expect(page.getByText("0 channels")).toBeVisible({ timeout: 20_000 });

  await page.goto("/");
  await expect(page.getByText("Channel close").first()).toBeVisible();
  await post(esplora, "/mine", { blocks: 6 });
  await expect(async () => {
    await syncNow(page);
    await post(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(page.getByTestId("onchain-balance")).toHaveText(/28\d,\d{3} sats/, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
});
