import { createServer } from "node:net";
import { bech32m, utf8 } from "@scure/base";
import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { joinWorldMint } from "./steps";

/** A Fedimint invite naming one guardian at `url` (fedimint-core's invite encoding). */
const inviteFor = (url: string, federationId: Uint8Array): string => {
  const u = utf8.decode(url);
  const api = new Uint8Array([u.length, ...u, 0]);
  const bytes = new Uint8Array([2, 0, api.length, ...api, 1, 32, ...federationId]);
  return bech32m.encode("fed1", bech32m.toWords(bytes), false);
};

test("joining a federation goes through the real Fedimint client: an unreachable one fails with the spec's message", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // No federation can run here: this "guardian" takes each connection and drops it.
  let attempts = 0;
  const guardian = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((r) => guardian.listen(0, "127.0.0.1", r));
  const port = (guardian.address() as { port: number }).port;
  try {
    await createWallet(page);
    await page.goto("/settings/federations");
    const code = inviteFor(`ws://127.0.0.1:${port}/`, new Uint8Array(32).fill(5));
    // A damaged invite is not an invite.
    const damaged = `${code.slice(0, -1)}${code.endsWith("q") ? "p" : "q"}`;
    await page.getByLabel("Federation invite code or mint URL").fill(damaged);
    // A federation's ecash does not come back with the 12 words: the form says so before joining.
    await expect(page.getByRole("note")).toContainText("cannot be restored from your 12 words");
    await page.getByRole("button", { name: "Add" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid Arguments were given");
    // The client loads in the worker and tries the invite's guardian, which never answers as one.
    await page.getByLabel("Federation invite code or mint URL").fill(code);
    await page.getByRole("button", { name: "Add" }).click();
    await expect(page.getByRole("alert")).toHaveText("Failed to connect to a federation.", {
      timeout: 120_000,
    });
    expect(attempts).toBeGreaterThan(0);
    await expect(page.getByText("You have not joined a federation or mint.")).toBeVisible();
  } finally {
    guardian.close();
  }
});

test("in safe mode a mint is resynced from the seed: confirm, progress, then Nice reloads home", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  await createWallet(page);
  const card = await joinWorldMint(page, `${esplora}/cashu`);
  // Resync is offered only in safe mode.
  await expect(page.getByRole("button", { name: "Resync Local World Mint" })).toHaveCount(0);

  await card.getByRole("button", { name: "Receive" }).click();
  await card.getByLabel("Amount (sats)").fill("2000");
  await card.getByRole("button", { name: "Create invoice" }).click();
  const invoice = await card.getByLabel("Lightning invoice").inputValue();
  await postJson(esplora, "/ln/pay", { bolt11: invoice });
  await expect(card.getByRole("status")).toHaveText("Received 2,000 e-sats.", { timeout: 60_000 });

  await page.goto("/settings/emergencykit");
  await page.getByLabel("Use safe mode").click();
  await expect(page.getByLabel("Use safe mode")).toBeChecked();
  await page.goto("/settings/federations");
  await page.getByRole("button", { name: "Resync Local World Mint" }).click();
  const confirm = page.getByRole("dialog", { name: "Resync Local World Mint?" });
  await confirm.getByRole("button", { name: "Resync Local World Mint" }).click();
  const progress = page.getByRole("dialog", { name: "Resyncing Local World Mint" });
  await expect(progress).toBeVisible();
  // What the seed holds at the mint is what the wallet already counts: nothing is counted twice.
  await expect(progress.getByRole("status")).toHaveText("Resync finished. Recovered 0 e-sats.", {
    timeout: 120_000,
  });
  await progress.getByRole("button", { name: "Nice" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("custody-label").first()).toHaveText("2,000 e-sats held by Local World Mint");
});
