import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { eventsOnRelay } from "./relay";
import { joinWorldMint } from "./steps";

/** The owner's recommendations (kind 38000) on the world's relay. */
const recommendationsOnRelay = (esplora: string, npub: string) => eventsOnRelay(esplora, npub, 38000);

test("receive into ecash from the receive screen's method choice, then recommend the mint on nostr", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  const mint = `${esplora}/cashu`;
  await createWallet(page);
  const card = await joinWorldMint(page, mint);
  // The mint's message of the day, read when the wallet opened the ecash engine.
  await expect(card.getByTestId("federation-motd")).toHaveText("The local world's test mint.", {
    timeout: 60_000,
  });

  // Receive: the amount control's method cycles from the wallet's own lightning to ecash at the mint.
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByLabel("Amount (sats, optional)").fill("5000");
  // Lightning says its most only where the LSP stated one.
  await page
    .getByRole("button", { name: /^Receive by Lightning(, up to .* sats)?\. Change method$/ })
    .click();
  await page
    .getByRole("button", { name: /^Receive by Ecash at Local World Mint, up to .* e-sats\. Change method$/ })
    .waitFor();
  await expect(page.getByRole("note").first()).toContainText("held for you by Local World Mint, not by you");
  await expect(page.getByRole("group", { name: "Receive by" })).toHaveCount(0);
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = (await page.getByTestId("receive-invoice").getAttribute("title")) ?? "";
  expect(invoice).toMatch(/^lnbcrt50u1/);
  await postJson(esplora, "/ln/pay", { bolt11: invoice });
  await expect(page.getByRole("status")).toHaveText(
    "5,000 e-sats arrived, held for you by Local World Mint.",
    {
      timeout: 60_000,
    },
  );
  await page.goto("/");
  await expect(page.getByTestId("custody-label").first()).toHaveText("5,000 e-sats held by Local World Mint");

  // Recommend the mint: a signed kind 38000 reaches the world's relay.
  await page.goto("/settings/federations");
  await card.getByRole("button", { name: "Recommend" }).click();
  await expect(card.getByRole("status")).toHaveText("You recommend Local World Mint to others on nostr.");
  await page.goto("/settings");
  await page.getByRole("link", { name: "Nostr keys" }).click();
  const npub = (await page.getByTestId("npub").textContent()) ?? "";
  await expect
    .poll(async () => (await recommendationsOnRelay(esplora, npub))[0]?.tags ?? [], { timeout: 60_000 })
    .toEqual(
      expect.arrayContaining([
        ["d", mint],
        ["k", "38172"],
        ["u", mint, "cashu"],
      ]),
    );
});
