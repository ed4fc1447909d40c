import { postJson } from "../harness/http";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { createWallet, expect, test } from "./fixtures";
import { askLightningReceive } from "./steps";

test("a link sets up an LSPS2 lightning service; a receive opens its channel for the promised fee, and a greedy LSP's payment is refused", async ({
  page,
  esplora,
}) => {
  test.setTimeout(240_000);
  const lsp = (await (await fetch(`${esplora}/ln/info`)).json()) as { pubkey: string; address: string };
  await createWallet(page);
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });

  // The link names the service; the wallet asks before using it.
  await page.goto(`/?lsps=${encodeURIComponent(lsp.address)}&token=local-world`);
  await expect(
    page.getByText(`A link offers this lightning service connection: ${lsp.address}`),
  ).toBeVisible();
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Lightning service connected.")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_lsps_connection_string"))).toBe(
    lsp.address,
  );
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_lsp"))).toBe("");

  await askLightningReceive(page, 50_000);
  await expect(page.getByText("setup fee of 2,000 sats. You will receive 48,000 sats.")).toBeVisible({
    timeout: 45_000,
  });
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = (await page.getByTestId("receive-invoice").getAttribute("title")) ?? "";
  // The wallet's own invoice for the full amount, routed through the LSP.
  const decoded = decodeBolt11(invoice);
  expect(decoded?.amountMsat).toBe(50_000_000n);
  expect(decoded?.payeePubkey).not.toBe(lsp.pubkey);
  expect((await postJson(esplora, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("48,000 sats arrived over lightning.")).toBeVisible();

  // An LSP that keeps more than it promised: the payment goes back, and the receive screen says why.
  await postJson(esplora, "/lsps2/greedy", { msat: 1000 });
  try {
    await page.getByRole("button", { name: "Receive again" }).click();
    await page.getByLabel("Amount (sats, optional)").fill("600000");
    await page.getByRole("radio", { name: "Lightning only" }).check();
    await expect(page.getByText("setup fee of 2,400 sats. You will receive 597,600 sats.")).toBeVisible({
      timeout: 45_000,
    });
    await page.getByRole("button", { name: "Show address" }).click();
    const greedy = (await page.getByTestId("receive-invoice").getAttribute("title")) ?? "";
    expect((await postJson(esplora, "/ln/pay", { bolt11: greedy })).status).toBe("failed");
  } finally {
    await postJson(esplora, "/lsps2/greedy", { msat: 0 });
  }
  await expect(page.getByTestId("receive-refused")).toHaveText(
    "A payment was sent back to the payer: the LSP kept 2,401 sats of it, more than the 2,400 sats setup fee it promised. Nothing was taken from you.",
    { timeout: 60_000 },
  );
});
