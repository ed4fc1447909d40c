import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { askLightningReceive } from "./steps";

test("an LSP that allows only a week's safety delay is refused in words on Receive; once the owner accepts its delay, the receive opens a channel with it", async ({
  page,
  esplora,
}) => {
  test.setTimeout(240_000);
  const lsp = (await (await fetch(`${esplora}/ln/info`)).json()) as { pubkey: string; address: string };
  // No watchtower: how long the wallet may stay closed is then the channel's delay, and home says so.
  await page.addInitScript(() => {
    if (localStorage.getItem("USER_SETTINGS_tower") === null) localStorage.setItem("USER_SETTINGS_tower", "");
  });
  await createWallet(page);
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });
  await page.goto(`/?lsps=${encodeURIComponent(lsp.address)}&token=local-world`);
  await expect(page.getByText("Starting lightning…")).toBeHidden({ timeout: 60_000 });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Lightning service connected.")).toBeVisible();

  // The world's LSP allows a client at most 1,008 blocks (a week) from now on, until the test ends.
  await postJson(esplora, "/lsps2/max-delay", { blocks: 1008 });
  try {
    await askLightningReceive(page, 50_000);
    const refusal = page.getByTestId("receive-lsp-refused");
    await expect(refusal).toContainText(
      "The LSP allows a safety delay of at most 1,008 blocks (about 7 days)",
      {
        timeout: 45_000,
      },
    );
    await expect(refusal).toContainText(
      "the wallet may stay closed for only about 7 days without a watchtower",
    );
    const consent = page.getByRole("region", { name: "Accept a shorter safety delay?" });
    await expect(consent).toContainText(
      "Only with this LSP: its new channels use 1,008 blocks (about 7 days).",
    );

    // Declining changes nothing: the receive is still refused, and the choice is offered again.
    await consent.getByRole("button", { name: "Not now" }).click();
    await expect(consent).toBeHidden();
    await page.getByRole("button", { name: "Show address" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "at most 1,008 blocks" })).toBeVisible();
    await expect(page.getByTestId("receive-invoice")).toHaveCount(0);

    // Accepted from the keyboard: back from "Show address" to the consent's buttons.
    const accept = consent.getByRole("button", { name: "Accept 1,008 blocks" });
    await page.getByRole("button", { name: "Show address" }).focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(accept).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(consent).toBeHidden({ timeout: 60_000 });
    await expect(page.getByText("setup fee of 2,000 sats. You will receive 48,000 sats.")).toBeVisible({
      timeout: 60_000,
    });
    await page.getByRole("button", { name: "Show address" }).click();
    const invoice = (await page.getByTestId("receive-invoice").getAttribute("title")) ?? "";
    expect((await postJson(esplora, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText("48,000 sats arrived over lightning.")).toBeVisible();
  } finally {
    await postJson(esplora, "/lsps2/max-delay", { blocks: null });
  }
  // The LSP must wait the week the owner accepted before spending its side of the new channel.
  const channels = (await (await fetch(`${esplora}/ln/channels`)).json()) as { spendDelay: number | null }[];
  expect(channels.map((c) => c.spendDelay)).toContain(1008);
  // Home tells how long the wallet may now stay closed without a watchtower: the channel's week.
  await page.getByRole("link", { name: "Home" }).last().click();
  await expect(page.getByText("open the wallet at least once every 7 days")).toBeVisible();
});
