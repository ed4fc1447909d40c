import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";
import { writeQrVideo } from "./fake-camera";
import { createWallet, expect, test } from "./fixtures";

const PAYEE = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

test("the scanner reads a payment QR from the camera and opens send with the request", async ({
  esplora,
}, info) => {
  const video = join(tmpdir(), `wallet-qr-${process.pid}-${info.workerIndex}.y4m`);
  writeQrVideo(video, `bitcoin:${PAYEE}?amount=0.0001234&label=Coffee`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: info.project.use.baseURL });
    await context.grantPermissions(["camera"]);
    await context.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), esplora);
    const page = await context.newPage();
    await createWallet(page);
    await page.getByRole("link", { name: "Scan" }).first().click();
    await expect(page).toHaveURL(/\/send\?to=/, { timeout: 20_000 });
    const request = page.getByTestId("send-request");
    await expect(request).toContainText("On-chain address");
    await expect(request).toContainText("Asks for 12,340 sats");
    await expect(request).toContainText("Coffee");
    await expect(page.getByLabel("Amount (sats)")).toBeVisible();
  } finally {
    await browser.close();
  }
});

test("search: a short query is not sendable; an address goes on to send", async ({ page }) => {
  await createWallet(page);
  await page.goto("/search");
  await page.getByLabel("Address, invoice or lightning address").fill("short");
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
  await page.getByLabel("Address, invoice or lightning address").fill(PAYEE);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/send\?to=/);
  await expect(page.getByTestId("send-request")).toContainText("On-chain address");
});
