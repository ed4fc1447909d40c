import { postJson } from "../harness/http";
import { createWallet, expect, stopNode, test } from "./fixtures";
import { freshBrowserPage, joinWorldMint, restoreWords, seedWords } from "./steps";

// The world's two Cashu mints and its lightning node are shared by the run: the steps take turns.
test.describe.configure({ mode: "serial" });

test("join the world's mint, receive ecash over lightning, see who holds it, pay from it, transfer it, and restore it from the seed", async ({
  page,
  esplora,
  browser,
}) => {
  // Two mints, payments over a channel the LSP opens, and a second browser restoring from the words.
  test.setTimeout(360_000);
  const mintA = `${esplora}/cashu`;
  const mintB = `${esplora}/cashu2`;
  await createWallet(page);
  await expect(page.getByRole("link", { name: "Join a federation" })).toBeVisible();

  // The second mint announces the date it stops serving.
  const end = Math.floor(Date.now() / 1000) + 3 * 86_400 + 3600;
  await postJson(esplora, "/cashu2/admin/expiry", { end_of_service: end });

  await page.goto("/settings/federations");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("alert")).toHaveText("Federation code required");
  await page.getByLabel("Federation invite code or mint URL").fill("not a mint");
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid Arguments were given");
  await page.getByLabel("Federation invite code or mint URL").fill(mintA);
  await page.getByRole("button", { name: "Add" }).click();
  const cardA = page.getByRole("article", { name: "Local World Mint" });
  await expect(cardA).toBeVisible({ timeout: 30_000 });
  await expect(cardA).toContainText("Held by Local World Mint, not by you");
  await page.getByLabel("Federation invite code or mint URL").fill(`${mintA}/`);
  await page.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("alert")).toHaveText("You're already a member of this federation.");
  await page.getByLabel("Federation invite code or mint URL").fill(mintB);
  await page.getByRole("button", { name: "Add" }).click();
  const cardB = page.getByRole("article", { name: "Second Local Mint" });
  await expect(cardB).toBeVisible({ timeout: 30_000 });
  await expect(cardB).toContainText("Stops serving on");

  // Receive 10,000 sats into ecash: the mint's invoice, paid by the world.
  await cardA.getByRole("button", { name: "Receive" }).click();
  await cardA.getByLabel("Amount (sats)").fill("10000");
  await cardA.getByRole("button", { name: "Create invoice" }).click();
  const invoice = await cardA.getByLabel("Lightning invoice").inputValue();
  expect(invoice).toMatch(/^lnbcrt100u1/);
  await postJson(esplora, "/ln/pay", { bolt11: invoice });
  await expect(cardA.getByRole("status")).toHaveText("Received 10,000 e-sats.", { timeout: 60_000 });
  await expect(cardA.getByTestId("federation-balance")).toHaveText("10,000 e-sats");

  // Home says who holds it, and warns of the second mint's end with a countdown.
  await page.goto("/");
  await expect(page.getByTestId("custody-label").first()).toHaveText(
    "10,000 e-sats held by Local World Mint",
  );
  await expect(page.getByRole("link", { name: "Move ecash to lightning" })).toBeVisible();
  const banner = page.getByRole("alert", { name: "A federation is shutting down" });
  await expect(banner).toContainText(/Second Local Mint stops serving in 3 d (0|1) h \d+ min/);

  // Pay an invoice of the world's node from ecash: the fee is shown first.
  const { bolt11 } = await postJson(esplora, "/ln/invoice", { amount_sats: 1_000, description: "tea" });
  // From the send screen: the ecash at the mint holding it covers the invoice and its fee, so it is a source
  // to choose on the same screen, with the mint's fee shown before confirming.
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText("1,000");
  await page.getByRole("button", { name: /^Pay by Lightning, up to .* sats\. Change method$/ }).click();
  await expect(
    page.getByRole("button", {
      name: "Pay by Ecash at Local World Mint, up to 10,000 e-sats. Change method",
    }),
  ).toBeVisible();
  await expect(page.getByTestId("send-fee")).toHaveText(
    /^1,000 sats from your ecash at Local World Mint, plus the mint's fee of at most \d+ e-sats\./,
  );
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent).toContainText(
    /1,000 sats paid from your ecash at Local World Mint, with a fee of \d+ e-sats\./,
    {
      timeout: 60_000,
    },
  );
  await sent.getByRole("button", { name: "Close" }).click();
  await page.goto("/settings/federations");
  const afterPay = Number((await cardA.getByTestId("federation-balance").textContent())?.replace(/\D/g, ""));
  expect(afterPay).toBeLessThanOrEqual(9_000);
  expect(afterPay).toBeGreaterThan(8_900);

  // Transfer 3,000 to the second mint; amounts above the balance are refused. The fee shows before it moves.
  await cardA.getByRole("link", { name: "Transfer" }).click();
  await expect(page).toHaveURL(/\/transfer\?from=/);
  await page.getByLabel("To").selectOption({ label: "Second Local Mint (0 e-sats)" });
  await page.getByLabel("Amount (sats)").fill("999999");
  await page.getByRole("button", { name: "Check fee" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "You don't have enough balance for this amount and its fee.",
  );
  await page.getByLabel("Amount (sats)").fill("3000");
  await page.getByRole("button", { name: "Check fee" }).click();
  const transferPreview = page.getByRole("region", { name: "Preview" });
  await expect(transferPreview).toContainText(
    /3,000 e-sats arrive at Second Local Mint; fee at most \d+ e-sats\./,
    { timeout: 30_000 },
  );
  // Edit returns to the amount; checking again gives a new quote.
  await transferPreview.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByLabel("Amount (sats)")).toHaveValue("3000");
  await page.getByRole("button", { name: "Check fee" }).click();
  await page.getByRole("region", { name: "Preview" }).getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByRole("dialog")).toContainText(/Moved 3,000 e-sats/, { timeout: 60_000 });
  await page.getByRole("dialog").getByRole("button", { name: "Continue" }).click();
  await expect(cardB.getByTestId("federation-balance")).toHaveText("3,000 e-sats");
  const heldA = afterPay - 3_000;
  await expect(cardA.getByTestId("federation-balance")).toHaveText(`${heldA.toLocaleString("en-US")} e-sats`);

  // The seed words, then a fresh browser: its mints come back from storage, its ecash from the seed.
  const words = await seedWords(page);
  // One device at a time: the first stops its node, which gives the storage server's device lock up.
  await stopNode(page);
  const other = await freshBrowserPage(browser, esplora);
  await restoreWords(other, words);
  await expect(other.getByRole("tab", { name: "Just me" })).toBeVisible();
  // The storage server brings the first browser's log back, its mints with it; the ecash itself comes from
  // the seed, counted once.
  await expect(other.getByRole("region", { name: "Brought back from your storage server" })).toBeVisible({
    timeout: 90_000,
  });
  await other.goto("/settings/federations");
  await expect(other.getByRole("article", { name: "Local World Mint" })).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole("article", { name: "Second Local Mint" })).toBeVisible();
  await other.getByRole("button", { name: "Recover ecash from seed" }).click();
  await expect(other.getByRole("status").first()).toContainText(
    `Recovered ${(heldA + 3_000).toLocaleString("en-US")} e-sats.`,
    { timeout: 90_000 },
  );
  await expect(
    other.getByRole("article", { name: "Local World Mint" }).getByTestId("federation-balance"),
  ).toHaveText(`${heldA.toLocaleString("en-US")} e-sats`);
  await expect(
    other.getByRole("article", { name: "Second Local Mint" }).getByTestId("federation-balance"),
  ).toHaveText("3,000 e-sats");
  await other.context().close();
  await postJson(esplora, "/cashu2/admin/expiry", { end_of_service: null });
});

test("move ecash to the wallet's own lightning: start, preview with the invoice and fees, edit, confirm, result", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  await createWallet(page);
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });
  const card = await joinWorldMint(page, `${esplora}/cashu`);
  await card.getByRole("button", { name: "Receive" }).click();
  await card.getByLabel("Amount (sats)").fill("20000");
  await card.getByRole("button", { name: "Create invoice" }).click();
  await postJson(esplora, "/ln/pay", { bolt11: await card.getByLabel("Lightning invoice").inputValue() });
  await expect(card.getByTestId("federation-balance")).toHaveText("20,000 e-sats", { timeout: 60_000 });

  await page.goto("/");
  await page.getByRole("link", { name: "Move ecash to lightning" }).click();
  await expect(page).toHaveURL(/\/swaplightning$/);
  // 'Satoshi amount is invalid' is shown as too small; the LSP's own minimum for a new channel in its words.
  await page.getByLabel("Amount (sats)").fill("0");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("This amount is too small to swap.");
  await page.getByLabel("Amount (sats)").fill("1000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Your channels have no room for this payment, so it needs a new channel, and the LSP opens one only for payments of at least 10,000 sats. Ask for more, or receive on-chain.",
    {
      timeout: 30_000,
    },
  );
  await page.getByLabel("Amount (sats)").fill("12000");
  await page.getByRole("button", { name: "Continue" }).click();
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText(
    /12,000 sats from Local World Mint to your lightning; fee at most \d+ sats\./,
    {
      timeout: 30_000,
    },
  );
  await expect(preview).toContainText("setup fee of 2,000 sats");
  expect(await preview.getByLabel("Lightning invoice").inputValue()).toMatch(/^lnbcrt120u1/);
  // Edit returns to the start with what was entered.
  await preview.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByLabel("Amount (sats)")).toHaveValue("12000");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Confirm swap" }).click();
  const result = page.getByRole("dialog");
  await expect(result).toContainText(/Sent 12,000 sats from ecash to your lightning \(fee \d+ sats\)\./, {
    timeout: 60_000,
  });
  await result.getByRole("button", { name: "Home" }).click();
  await expect(page.getByRole("button", { name: /10,000 sats Lightning/ }).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId("custody-label")).toHaveText(
    /^\d{1,2},\d{3} e-sats held by Local World Mint$/,
  );
});
