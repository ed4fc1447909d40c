import { createWallet, expect, test } from "./fixtures";

test("log in to a site with LNURL-auth: the site records the wallet's key", async ({ page }) => {
  const service = process.env.HARNESS_LNURL_AUTH;
  if (!service) throw new Error("The login service did not start");
  await createWallet(page);
  const login = (await (await fetch(`${service}/login?action=login`)).json()) as {
    lnurl: string;
    k1: string;
  };

  // The login LNURL pasted in search goes home with the login dialog.
  await page.goto("/search");
  await page.getByLabel("Address, invoice or lightning address").fill(login.lnurl);
  await page.getByRole("button", { name: "Continue" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in with your wallet?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("lnurl-auth-host")).toHaveText(new URL(service).hostname);
  await dialog.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText(`Logged in to ${new URL(service).hostname}`)).toBeVisible();
  await expect(dialog).toBeHidden();

  const recorded = (await (await fetch(`${service}/logins?k1=${login.k1}`)).json()) as {
    loggedIn: boolean;
    key: string;
  };
  expect(recorded.loggedIn).toBe(true);
  expect(recorded.key).toMatch(/^0[23][0-9a-f]{64}$/);

  // Declining leaves the site without a login.
  const second = (await (await fetch(`${service}/login`)).json()) as { lnurl: string; k1: string };
  // A bech32 `lightning:LNURL1…` in the link shows the domain it signs for, read by the worker's parser.
  await page.goto(`/?lnurlauth=${encodeURIComponent(`lightning:${second.lnurl.toUpperCase()}`)}`);
  await expect(page.getByRole("dialog").getByTestId("lnurl-auth-host")).toHaveText(new URL(service).hostname);
  await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  const none = (await (await fetch(`${service}/logins?k1=${second.k1}`)).json()) as { loggedIn: boolean };
  expect(none.loggedIn).toBe(false);
});
