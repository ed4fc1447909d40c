import { postJson } from "../harness/http";
import { createWallet, expect, fundOnchain, syncNow, test } from "./fixtures";
import { confirmChannel, payWorld } from "./steps";

// These tests mine blocks on the run's one regtest chain and share its lightning node, so they take turns.
test.describe.configure({ mode: "serial" });

// Every test here starts a lightning node (LDK's 12 MB wasm) on two busy cores; some open and close channels.
test.describe.configure({ timeout: 180_000 });

test("swap on-chain funds into a channel with the LSP, see it, reload, close it and get the funds back", async ({
  page,
  esplora,
}) => {
  test.setTimeout(360_000);
  await createWallet(page);
  await fundOnchain(page, esplora, 300_000);

  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await expect(page).toHaveURL(/\/swap$/);
  await page.getByLabel("Amount (sats)").fill("99999");
  // The minimum shows before pressing, and the button stays off below it.
  await expect(page.getByText("A channel needs at least 100,000 sats.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Open channel" })).toBeDisabled();
  await page.getByLabel("Amount (sats)").fill("200000");
  await expect(page.getByText(/Network fee: about \d[\d,]* sats/)).toBeVisible();
  await page.getByRole("button", { name: "Open channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Channel opening" });
  await expect(dialog).toContainText("200,000");
  await dialog.getByRole("button", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Channel open").first()).toBeVisible();

  await confirmChannel(page, esplora, /(19\d|200),\d{3} sats/);

  await page.goto("/settings/channels");
  await expect(page.getByText("1 channel")).toBeVisible();

  // From here the test moves between screens inside the app (no reload), as a person would. The reload
  // comes later, on purpose. Pay an invoice made by the world's node at once: the channel is open, and a
  // payment waits for its peer if it is still connecting.
  await payWorld(page, esplora, 20_000, "coffee");

  // Receive from it: the screen polls and turns to "Payment received" once paid.
  await page.getByRole("link", { name: "Receive" }).first().click();
  await page.getByLabel("Amount (sats, optional)").fill("5000");
  await page.getByRole("radio", { name: "Lightning only" }).check();
  await page.getByRole("button", { name: "Show address" }).click();
  const invoice = await page.getByTestId("receive-invoice").getAttribute("title");
  expect(invoice).toMatch(/^lnbcrt50u1/);
  const paid = await postJson(esplora, "/ln/pay", { bolt11: invoice });
  expect(paid.status).toBe("succeeded");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("5,000 sats arrived over lightning");
  await page.getByRole("link", { name: "Home" }).last().click();
  await expect(page.getByRole("button", { name: /5,000 sats Lightning/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /20,000 sats Lightning/ })).toBeVisible();

  // Pay a lightning address of the world's LNURL service, then redeem one of its withdraw links.
  const alice = await postJson(esplora, "/lnurl/pay", {
    name: "alice",
    min_sats: 1_000,
    max_sats: 50_000,
    description: "Tips for Alice",
  });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(alice.address);
  await expect(page.getByText("Tips for Alice")).toBeVisible();
  await page.getByLabel("Amount (sats)").fill("3000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("dialog", { name: "Sent" }).getByRole("link", { name: "Home" }).click();
  // A service whose receipt is a secret sealed with the payment's preimage (LUD-10): shown once paid.
  const shop = await postJson(esplora, "/lnurl/pay", {
    name: "shop",
    min_sats: 1_000,
    max_sats: 50_000,
    description: "Gift card",
    secret: { description: "Your gift card code", text: "GIFT-4242-XYZ" },
  });
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(shop.address);
  await expect(page.getByText("Gift card")).toBeVisible();
  await page.getByLabel("Amount (sats)").fill("2000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent.getByText("Your gift card code")).toBeVisible({ timeout: 60_000 });
  await expect(sent.getByText("GIFT-4242-XYZ")).toBeVisible();
  await sent.getByRole("link", { name: "Home" }).click();
  const withdraw = await postJson(esplora, "/lnurl/withdraw", { min_sats: 1_000, max_sats: 4_000 });
  // The link is pasted on the redeem screen: a pay address is refused there in words, the withdraw link opens.
  await page.goto("/redeem");
  await page.getByLabel("Withdraw link").fill(alice.address);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("This is not a withdraw link.", { exact: false })).toBeVisible();
  await page.getByLabel("Withdraw link").fill(withdraw.lnurl);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Amount to redeem (sats)").fill("2000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("dialog", { name: "Redeemed" })).toBeVisible({ timeout: 60_000 });

  // The node restores its channel from the browser's storage after a reload.
  await page.goto("/settings/channels");
  await page.reload();
  await expect(page.getByText("1 channel")).toBeVisible();
  // Close is offered once the channel's peer is back (it shows as connecting until then).
  await page.getByRole("button", { name: "Close channel" }).click({ timeout: 60_000 });
  await page.getByRole("dialog").getByRole("button", { name: "Close channel" }).click();
  await expect(page.getByText("Closing the channel…")).toBeVisible();
  await expect(page.getByText("0 channels")).toBeVisible({ timeout: 45_000 });

  await page.goto("/");
  await expect(page.getByText("Channel close").first()).toBeVisible();
  await postJson(esplora, "/mine", { blocks: 6 });
  await expect(async () => {
    await syncNow(page);
    await postJson(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(page.getByTestId("onchain-balance")).toHaveText(/28\d,\d{3} sats/, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
});

test("home shows the lightning node loading in its progress bar, with the on-chain balance already there", async ({
  page,
}) => {
  await createWallet(page);
  // Each step the bar on home tells screen readers, and whether the on-chain balance was on screen then.
  await page.addInitScript(() => {
    const shown: { text: string | null; onchain: boolean }[] = [];
    Object.assign(window, { progressShown: shown });
    new MutationObserver(() => {
      const bar = document.querySelector('[aria-label="Loading wallet"]');
      const text = bar?.getAttribute("aria-valuetext") ?? null;
      if (shown.at(-1)?.text === text) return;
      shown.push({ text, onchain: document.querySelector('[data-testid="onchain-balance"]') !== null });
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.reload();
  const nodeSteps = ["Restoring your channels…", "Catching up with the bitcoin chain…"];
  const steps = () =>
    page.evaluate(
      () => (window as never as { progressShown: { text: string | null; onchain: boolean }[] }).progressShown,
    );
  await expect
    .poll(
      async () => {
        const s = await steps();
        return {
          node: s.filter((x) => nodeSteps.includes(x.text ?? "")).map((x) => x.text),
          last: s.at(-1)?.text,
        };
      },
      { timeout: 60_000 },
    )
    .toEqual({ node: nodeSteps, last: null });
  // Home and the on-chain balance did not wait for the node.
  expect((await steps()).filter((x) => nodeSteps.includes(x.text ?? "")).every((x) => x.onchain)).toBe(true);
  await expect(page.getByRole("progressbar", { name: "Loading wallet" })).toBeHidden();
  await expect(page.getByText("Starting lightning…")).toBeHidden();
  await expect(page.getByText("Lightning stopped or could not start.")).toBeHidden();
  await page.goto("/settings/admin");
  await expect(page.getByText("Status: running")).toBeVisible();
});

test("admin page: the node's status, peers, stop and start, logs", async ({ page, esplora }) => {
  await createWallet(page);
  await page.goto("/settings/admin");
  await expect(page.getByText("Status: running")).toBeVisible({ timeout: 60_000 });

  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("Enter a peer to connect to.");
  const info = await (await fetch(`${esplora}/ln/info`)).json();
  await page.getByLabel("Connect to a peer (pubkey@host:port)").fill(info.address);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  const peers = page.getByRole("region", { name: "Peers" });
  await expect(peers.getByText("Online")).toBeVisible();
  await peers.getByRole("button", { name: "Disconnect" }).click();
  await expect(peers.getByText("Offline")).toBeVisible();
  await peers.getByRole("button", { name: "Delete" }).click();
  await expect(peers.getByRole("listitem")).toHaveCount(0);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download logs" }).click();
  expect((await download).suggestedFilename()).toBe("mutiny-logs.txt");

  await page.getByRole("button", { name: "Stop node" }).click();
  await expect(page.getByText("Status: stopped")).toBeVisible();
  await page.getByRole("button", { name: "Start node" }).click();
  await expect(page.getByText("Status: running")).toBeVisible({ timeout: 60_000 });
});

test("a second tab never starts a lightning node, even while the first is still loading", async ({
  page,
  context,
}) => {
  await createWallet(page);
  // The first tab reloads: its node is loading again when the second tab opens.
  const sockets: string[] = [];
  await page.reload();
  const second = await context.newPage();
  second.on("websocket", (ws) => sockets.push(ws.url()));
  second.on("worker", () => sockets.push("worker"));
  await second.goto("/");
  await expect(second.getByText("Existing tab detected, aborting setup")).toBeVisible();
  await second.waitForTimeout(3000);
  expect(sockets).toEqual([]);
  // The first tab's node runs.
  await page.goto("/settings/admin");
  await expect(page.getByText("Status: running")).toBeVisible({ timeout: 60_000 });
});
