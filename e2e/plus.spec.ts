import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { fundAndOpenChannel, joinWorldMint } from "./steps";

test.describe.configure({ mode: "serial" });

test("join Plus (refused with a balance warning until the wallet has lightning funds), see the renewal date, reserve a lightning address, and an outside payer pays name@host twice (tab open, tab closed): both payments show after the reload", async ({
  page,
  context,
  esplora,
}) => {
  test.setTimeout(300_000);
  await createWallet(page);
  // Before joining, the lightning address offers the join prompt.
  await page.goto("/settings/lightningaddress");
  await expect(page.getByText("A lightning address comes with Plus. Join to reserve your name.")).toBeVisible(
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByRole("link", { name: "Join Plus" })).toBeVisible();
  // An incoming link is forwarded with its query.
  await page.goto("/plus?plan=1");
  await expect(page).toHaveURL(/\/settings\/plus\?plan=1$/);
  const join = page.getByRole("button", { name: "Join for 5,000 sats" });
  await expect(join).toBeDisabled({ timeout: 60_000 });
  await expect(
    page.getByText("You need more than 5,000 sats in lightning and federation balance to join."),
  ).toBeVisible();

  await page.goto("/");
  await fundAndOpenChannel(page, esplora);

  await page.getByRole("link", { name: "Settings" }).first().click();
  // Plus is reached from its call to action at the top of settings (it is listed once).
  await expect(page.getByRole("link", { name: /Plus/ })).toHaveCount(1);
  await page.getByRole("link", { name: /^Join Plus/ }).click();
  await expect(page).toHaveURL(/\/settings\/plus$/);
  await expect(join).toBeEnabled({ timeout: 60_000 });
  await join.click();
  await expect(page.getByRole("heading", { name: "You are a Plus member" })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(/^Renews on .+\.$/)).toBeVisible();
  // Membership changes the logo and the call to action.
  await page.goto("/settings");
  await expect(page.getByRole("link", { name: /^Manage Plus/ })).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("img", { name: "Wallet Plus" })).toBeVisible();

  // The world's mint receives for the address while the tab is closed: the owner joins it first.
  const mint = `${esplora}/cashu`;
  await joinWorldMint(page, mint);

  // The lightning address: a member reserves a name and is paid at name@host by an outside payer.
  await page.goto("/settings");
  await page.getByRole("link", { name: "Lightning address" }).click();
  await expect(page).toHaveURL(/\/settings\/lightningaddress$/);
  await page.getByLabel("Name").fill("Bad Name");
  await expect(page.getByText("Only lowercase letters, digits, dash, underscore and dot.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reserve name" })).toBeDisabled();
  const name = `plus-${Date.now()}`;
  await expect(page.getByLabel("While the app is closed, receive into")).toHaveValue(mint);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Reserve name" }).click();
  const host = new URL(esplora).host;
  await expect(page.getByTestId("lightning-address")).toHaveText(`${name}@${host}`, { timeout: 30_000 });

  const params = (await (await fetch(`${esplora}/.well-known/lnurlp/${name}`)).json()) as {
    callback: string;
  };
  const { pr } = (await (
    await fetch(`${params.callback}?amount=2100000&comment=${encodeURIComponent("for the pizza")}`)
  ).json()) as { pr: string };
  const paid = await postJson(esplora, "/ln/pay", { bolt11: pr });
  expect(paid.status).toBe("succeeded");
  await page.goto("/");
  await expect(page.getByRole("button", { name: /2,100 sats/ }).first()).toBeVisible({ timeout: 60_000 });

  // The tab closes; the same payer pays the address again: the world's mint receives, and the token waits
  // on the relay for the wallet.
  await page.close();
  const second = (await (
    await fetch(
      `${params.callback}?amount=1500000&comment=${encodeURIComponent("paid while the tab was closed")}`,
    )
  ).json()) as { pr: string };
  const paidClosed = await postJson(esplora, "/ln/pay", { bolt11: second.pr });
  expect(paidClosed.status).toBe("succeeded");
  await expect
    .poll(
      async () => ((await (await fetch(`${esplora}/hermes/tokens?name=${name}`)).json()) as unknown[]).length,
      {
        timeout: 60_000,
      },
    )
    .toBe(1);

  // The tab opens again: the token is redeemed, and both payments show, each with its amount.
  const reopened = await context.newPage();
  await reopened.goto("/");
  await expect(reopened.getByRole("button", { name: /paid while the tab was closed.*1,500/ })).toBeVisible({
    timeout: 120_000,
  });
  await expect(reopened.getByRole("button", { name: /2,100 sats/ }).first()).toBeVisible({ timeout: 60_000 });
});
