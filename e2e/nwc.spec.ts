import { NWAClient, NWCClient } from "@getalby/sdk/nwc";
import WebSocket from "ws";
import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { fundAndOpenChannel } from "./steps";

// Node 20 has no global WebSocket; the outside app (the Alby SDK) in this test process uses it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

// These tests mine blocks on the run's one regtest chain and share its lightning node, so they take turns.
test.describe.configure({ mode: "serial" });

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return "none";
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};

test("an app pays from the wallet over wallet-connect within its budget; held payments are approved or denied in the requests tab; an app's link creates its connection", async ({
  page,
  esplora,
}) => {
  test.setTimeout(300_000);
  const clients: { close: () => void }[] = [];
  try {
    await createWallet(page);
    await fundAndOpenChannel(page, esplora);

    // A connection with a budget: its URI is what the app is given.
    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.getByRole("link", { name: "Wallet connections" }).click();
    await expect(page).toHaveURL(/\/settings\/connections$/);
    await page.getByRole("button", { name: "Add connection" }).click();
    const form = page.getByRole("dialog", { name: "Add connection" });
    await form.getByRole("button", { name: "Create connection" }).click();
    await expect(form.getByRole("alert")).toHaveText("A name is required.");
    await form.getByLabel("Name").fill("Coffee shop");
    await form.getByLabel("Budget (sats)").fill("0");
    await form.getByRole("button", { name: "Create connection" }).click();
    await expect(form.getByRole("alert")).toContainText("can't be 0");
    await form.getByLabel("Budget (sats)").fill("10000");
    await form.getByRole("button", { name: "Create connection" }).click();
    const opened = page.getByRole("dialog", { name: "Open it in your app" });
    await expect(opened.getByRole("img", { name: "QR code of the connection" })).toBeVisible({
      timeout: 60_000,
    });
    const uri = await opened.getByLabel("Connection string").inputValue();
    expect(uri).toMatch(/^nostr\+walletconnect:\/\//);
    await opened.getByRole("button", { name: "Done" }).click();

    // The outside app, in this test process, pays an invoice of the world's node within the budget.
    const shop = new NWCClient({ nostrWalletConnectUrl: uri });
    clients.push(shop);
    const coffee = await postJson(esplora, "/ln/invoice", { amount_sats: 2_000, description: "coffee" });
    const paid = await shop.payInvoice({ invoice: coffee.bolt11 });
    expect(paid.preimage).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole("link", { name: "Home" }).first().click();
    await expect(page.getByRole("button", { name: /Coffee shop.*2,000 sats/ })).toBeVisible({
      timeout: 30_000,
    });

    // A connection that asks for each payment.
    await page.goto("/settings/connections");
    await page.getByRole("button", { name: "Add connection" }).click();
    const careful = page.getByRole("dialog", { name: "Add connection" });
    await careful.getByLabel("Name").fill("Careful app");
    await careful.getByLabel("Approve payments automatically within the budget").uncheck();
    await careful.getByLabel("Budget (sats)").fill("0");
    await careful.getByRole("button", { name: "Create connection" }).click();
    const opened2 = page.getByRole("dialog", { name: "Open it in your app" });
    const uri2 = await opened2.getByLabel("Connection string").inputValue({ timeout: 60_000 });
    await opened2.getByRole("button", { name: "Done" }).click();
    const app = new NWCClient({ nostrWalletConnectUrl: uri2 });
    clients.push(app);

    // Within the app (no reload): the wallet-connect service keeps listening, as it does for a person.
    await page.getByRole("link", { name: "Home" }).first().click();
    const first = await postJson(esplora, "/ln/invoice", { amount_sats: 1_500, description: "approved" });
    const approved = app.payInvoice({ invoice: first.bolt11 });
    const requestsTab = page.getByRole("tab", { name: /Requests/ });
    await expect(requestsTab).toContainText("1 request", { timeout: 30_000 });
    await requestsTab.click();
    await page.getByRole("button", { name: "Approve 1,500 sats for Careful app" }).click();
    expect((await approved).preimage).toMatch(/^[0-9a-f]{64}$/);
    await expect(page.getByText("No pending requests.")).toBeVisible();

    const second = await postJson(esplora, "/ln/invoice", { amount_sats: 1_000, description: "denied" });
    const denied = codeOf(app.payInvoice({ invoice: second.bolt11 }));
    await page.getByRole("button", { name: "Deny 1,000 sats for Careful app" }).click({ timeout: 30_000 });
    expect(await denied).toBe("RESTRICTED");
    await expect(page.getByText("No pending requests.")).toBeVisible();

    // An app's authorization link: the form shows its fixed budget; approving tells the app.
    const relay = `${esplora.replace(/^http/, "ws")}/nostr`;
    const nwa = new NWAClient({
      relayUrls: [relay],
      requestMethods: ["get_info", "pay_invoice"],
      name: "Kiosk",
      maxAmount: 5_000,
      budgetRenewal: "monthly",
    });
    clients.push(nwa);
    const found = new Promise<NWCClient>((resolve) => {
      void nwa.subscribe({ onSuccess: resolve });
    });
    await page.goto(`/?nwa=${encodeURIComponent(nwa.connectionUri)}`);
    await expect(page).toHaveURL(/\/settings\/connections\?nwa=/);
    await expect(page.getByRole("heading", { name: "An app asks to connect" })).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Kiosk");
    await expect(page.getByLabel("Budget (sats)")).toHaveValue("5000");
    await expect(page.getByLabel("Budget (sats)")).toBeDisabled();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    const kiosk = await found;
    clients.push(kiosk);
    expect((await kiosk.getInfo()).methods).toContain("pay_invoice");
    await expect(page).toHaveURL(/\/settings\/connections$/);
    await expect(page.locator("summary", { hasText: "Kiosk" })).toBeVisible();
  } finally {
    for (const c of clients) c.close();
  }
});
