import { createWallet, expect, test } from "./fixtures";

test("safe mode hides requests and shows the safe-mode notice in place of the lightning balance", async ({
  page,
}) => {
  await createWallet(page);
  await expect(page.getByRole("tab", { name: /Requests/ })).toBeVisible();
  await page.goto("/settings/emergencykit");
  // The toggle follows the wallet: it shows checked once the worker recorded the change.
  await page.getByLabel("Use safe mode").click();
  await expect(page.getByLabel("Use safe mode")).toBeChecked();
  await page.goto("/");
  await expect(page.getByText("Safe mode is on: lightning is not running.")).toBeVisible();
  await expect(page.getByRole("tab", { name: /Requests/ })).toHaveCount(0);
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
});
