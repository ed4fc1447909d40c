import { createWallet, expect, test } from "./fixtures";

interface Stored {
  readonly description: { feedback: string; has_logs: boolean };
  readonly contact: { nostr?: string; email?: string };
  readonly files: readonly { name: string; size: number; text?: string }[];
}

test("feedback with logs reaches the feedback service, with no seed word in the logs", async ({
  page,
  esplora,
}) => {
  test.setTimeout(150_000);
  await createWallet(page);
  await page.goto("/settings/backup");
  await page.getByRole("button", { name: "Show the 12 words" }).click();
  const seed = page.getByRole("list", { name: "Seed words" }).getByRole("listitem");
  await expect(seed).toHaveCount(12, { timeout: 60_000 });
  const words = (await seed.allTextContents()).map((w) => w.trim().replace(/^\d+\.?\s*/, ""));

  await page.goto("/settings");
  await page.getByRole("link", { name: "Send feedback" }).click();
  await expect(page).toHaveURL(/\/feedback$/);
  const send = page.getByRole("button", { name: "Send feedback" });
  // Who the owner is on nostr: the wallet's own npub, already filled in.
  await expect(page.getByLabel("Your npub (optional)")).toHaveValue(/^npub1[02-9ac-hj-np-z]{58}$/);
  await expect(send).toBeDisabled();
  await page.getByLabel("Email", { exact: true }).check();
  await page.getByLabel("Your email (optional)").fill("owner@example.com");
  await expect(send).toBeDisabled();
  await page.getByLabel("Feedback", { exact: true }).fill("x");
  await page.getByLabel("Feedback", { exact: true }).fill("");
  await expect(page.getByText("Please say something!")).toBeVisible();
  await expect(send).toBeDisabled();
  const text = `The wallet is great ${Date.now()}`;
  await page.getByLabel("Feedback", { exact: true }).fill(text);
  await page.getByLabel("Include logs").check();
  const chooser = page.waitForEvent("filechooser");
  await page
    .getByRole("group", { name: "Images (up to 4)" })
    .getByRole("button", { name: "Add images" })
    .click();
  await (await chooser).setFiles({
    name: "shot.png",
    mimeType: "image/png",
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  });
  await expect(page.getByText("shot.png")).toBeVisible();
  await send.click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 60_000 });

  const all = (await (await fetch(`${esplora}/v1/feedback`)).json()) as Stored[];
  const mine = all.find((f) => f.description.feedback === text);
  expect(mine?.contact).toEqual({ email: "owner@example.com" });
  expect(mine?.description.has_logs).toBe(true);
  const logs = mine?.files.find((f) => f.name === "logs");
  expect(logs?.text).toBeDefined();
  const tokens = new Set((logs?.text ?? "").toLowerCase().split(/[^a-z]+/));
  for (const w of words) expect(tokens.has(w)).toBe(false);
  expect(mine?.files.find((f) => f.name === "image_0")?.size).toBeGreaterThan(0);
});
