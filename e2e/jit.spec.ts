import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { askLightningReceive } from "./steps";

test("a new wallet receives over lightning through a channel the LSP opens just in time, for its setup fee", async ({
  page,
  esplora,
}) => {
  test.setTimeout(240_000);
  await createWallet(page);
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });

  await askLightningReceive(page, 50_000);
  // No channel yet: the LSP's fee (max of 2,000 sats and 0.4%) and what will arrive, before the invoice.
  await expect(page.getByText("setup fee of 2,000 sats. You will receive 48,000 sats.")).toBeVisible({
    timeout: 45_000,
  });
  // The fee is said once; a fee above 1,000 sats adds that it is paid once.
  await expect(page.getByText("2,000 sats")).toHaveCount(1);
  await expect(page.getByText(/^That fee is above 1,000 sats, but it is paid once/)).toBeVisible();
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  // The LSP's invoice, for the full amount.
  expect(invoice).toMatch(/^lnbcrt500u1/);
  const paid = await postJson(esplora, "/ln/pay", { bolt11: invoice });
  expect(paid.status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("status")).toContainText("48,000 sats arrived over lightning");

  await page.getByRole("link", { name: "Home" }).last().click();
  // One row: what arrived, with the LSP's setup fee in its details (not the channel's size beside it).
  await page
    .getByRole("button", { name: /48,000 sats Lightning/ })
    .first()
    .click();
  const details = page.getByRole("dialog", { name: "Received" });
  await expect(details.getByText("2,000 sats")).toBeVisible();
  await details.getByRole("button", { name: "Close" }).click();
  await expect(page.getByText("Channel open")).toHaveCount(0);
});
