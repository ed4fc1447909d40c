import { createWallet, expect, test } from "./fixtures";

const post = async (base: string, path: string, body: unknown) => {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

test("receive on-chain: the faucet pays the address, pending then confirmed after mining", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByRole("button", { name: "Show address" }).click();
  const address = await page.getByTestId("receive-address").getAttribute("title");
  expect(address).toMatch(/^bcrt1q/);

  await post(esplora, "/faucet", { address, sats: 150_000 });
  await page.goto("/");
  // The wallet syncs when asked; the activity list and pending badge follow the chain.
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("pending-badge")).toContainText("150,000");
  await expect(page.getByRole("button", { name: /Received.*150,000/ })).toBeVisible();

  await post(esplora, "/mine", { blocks: 1 });
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByTestId("pending-badge")).toHaveCount(0);
  await expect(page.getByTestId("onchain-balance")).toHaveText("150,000 sats");
  await page.getByRole("button", { name: /Received.*150,000/ }).click();
  await expect(page.getByRole("dialog")).toContainText("Confirmed");
});
