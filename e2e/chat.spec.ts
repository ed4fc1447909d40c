import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { receiveOverLightning } from "./steps";

/** The wallet's npub, as its nostr keys screen shows it (reached from home, and back, inside the app). */
const npubOf = async (page: Page) => {
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("link", { name: "Nostr keys" }).click();
  const npub = page.getByTestId("npub");
  await expect(npub).toHaveText(/^npub1/, { timeout: 30_000 });
  const text = (await npub.textContent())?.trim() ?? "";
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole("list", { name: "Contacts" })).toBeVisible();
  return text;
};

/** Adds a contact from home's strip (home is open) and opens its chat from the contact's dialog. */
const addContactAndChat = async (page: Page, name: string, npub: string) => {
  const strip = page.getByRole("list", { name: "Contacts" });
  await strip.getByRole("button", { name: "New" }).click();
  const create = page.getByRole("dialog", { name: "New contact" });
  await create.getByLabel("Name").fill(name);
  await create.getByLabel("Lightning address").fill(`${name.toLowerCase()}@example.com`);
  await create.getByLabel("npub").fill(npub);
  await create.getByRole("button", { name: "Create contact" }).click();
  await page.getByRole("dialog", { name }).getByRole("link", { name: "Chat" }).click();
  await expect(page).toHaveURL(/\/chat\//);
  await expect(page.getByRole("heading", { name })).toBeVisible();
};

/** Receives 50,000 sats over lightning from the world's node (home is open); back on home after. */
const fundLightning = (page: Page, esplora: string) => receiveOverLightning(page, esplora, 90_000);

const timeline = (page: Page) => page.getByRole("list", { name: "Conversation" });

test("two wallets chat over nostr; one requests 5,000 sats, the other pays from the chat, both see Paid", async ({
  page,
  browser,
  esplora,
}) => {
  // Two wallets each start a node, take a channel the LSP opens and pay over it, on two busy cores.
  test.setTimeout(480_000);
  // Two wallets, A (the payer) and B (the requester) in another browser context; each learns the other's npub.
  await createWallet(page);
  const context = await browser.newContext();
  await context.addInitScript((url) => localStorage.setItem("USER_SETTINGS_esplora", url), esplora);
  const other = await context.newPage();
  try {
    await createWallet(other);
    const npubA = await npubOf(page);
    const npubB = await npubOf(other);
    // Each gets lightning funds: a channel the LSP opens just in time for a payment from the world's node.
    // Each moves only inside the app, as a person would: its node keeps its connection to the LSP.
    await fundLightning(other, esplora);
    await addContactAndChat(other, "Bob", npubA);
    await fundLightning(page, esplora);
    await addContactAndChat(page, "Ann", npubB);

    // A writes; B's open chat shows it (live refresh), and B answers.
    await page.getByLabel("Message").fill("Hi Ann, lunch was great");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(timeline(page).getByText("Hi Ann, lunch was great")).toBeVisible();
    await expect(timeline(other).getByText("Hi Ann, lunch was great")).toBeVisible({ timeout: 60_000 });
    await other.getByLabel("Message").fill("Glad you liked it!");
    await other.getByRole("button", { name: "Send message" }).click();
    await expect(timeline(page).getByText("Glad you liked it!")).toBeVisible({ timeout: 60_000 });

    // B requests 5,000 sats for lunch: an invoice goes to A as a message.
    await other
      .getByRole("navigation", { name: "Chat actions" })
      .getByRole("button", { name: "Request" })
      .click();
    await expect(other).toHaveURL(/\/request\//);
    await other.getByLabel("Amount (sats)").fill("0");
    await other.getByRole("button", { name: "Request" }).click();
    await expect(other.getByRole("alert")).toHaveText("Enter an amount above 0.");
    await other.getByLabel("Amount (sats)").fill("5000");
    await other.getByLabel("What for? (optional)").fill("lunch");
    await other.getByRole("button", { name: "Request" }).click();
    await expect(other).toHaveURL(/\/chat\//, { timeout: 60_000 });
    // B's own request: who asked and for what, waiting for payment, no Pay.
    const mine = timeline(other).getByRole("listitem").filter({ hasText: "lunch" });
    await expect(mine.getByText("You requested 5,000 sats")).toBeVisible();
    await expect(mine.getByText("Waiting for payment")).toBeVisible();
    await expect(mine.getByRole("button", { name: "Pay" })).toHaveCount(0);

    // A sees the request with Pay, pays it from the chat.
    const request = timeline(page).getByRole("listitem").filter({ hasText: "lunch" });
    await expect(request.getByText(/^.+ requested 5,000 sats$/)).toBeVisible({ timeout: 60_000 });
    await request.getByRole("button", { name: "Pay" }).click();
    await expect(page).toHaveURL(/\/send\?/);
    await expect(page.getByTestId("send-request")).toContainText("5,000");
    await page.getByRole("button", { name: "Confirm send" }).click();
    const sent = page.getByRole("dialog", { name: "Sent" });
    await expect(sent).toBeVisible({ timeout: 90_000 });
    // Paid from the chat: the result leads back to it first.
    await expect(sent.getByRole("link", { name: /^Back to the chat with / })).toBeVisible();
    await sent.getByRole("link", { name: "Home" }).click();

    // The payment's row on home is Ann's: it opens the chat, where the request now reads Paid.
    await page.getByRole("button", { name: /To Ann.*5,000 sats/ }).click();
    await expect(page).toHaveURL(/\/chat\//);
    await expect(request.getByText("Paid")).toBeVisible({ timeout: 30_000 });
    await expect(request.getByRole("button", { name: "Pay" })).toHaveCount(0);
    // B's chat turns to Paid once the payment arrived.
    await expect(mine.getByText("Paid")).toBeVisible({ timeout: 90_000 });

    // B follows A. A zaps someone on nostr publicly; B's friends tab shows it once the receipt is out.
    await other
      .getByRole("navigation", { name: "Chat actions" })
      .getByRole("button", { name: "Follow" })
      .click();
    await expect(
      other.getByRole("navigation", { name: "Chat actions" }).getByRole("button", { name: "Unfollow" }),
    ).toBeVisible();
    const suffix = Date.now().toString(36);
    const zoe = await postJson(esplora, "/nostr/seed", {
      name: `zoe${suffix}`,
      display_name: `Zoe ${suffix}`,
    });
    await page.getByRole("link", { name: "Home" }).first().click();
    const strip = page.getByRole("list", { name: "Contacts" });
    await strip.getByRole("button", { name: "New" }).click();
    const create = page.getByRole("dialog", { name: "New contact" });
    await create.getByLabel("Name").fill("Zoe");
    await create.getByLabel("Lightning address").fill(zoe.lud16);
    await create.getByLabel("npub").fill(zoe.npub);
    await create.getByRole("button", { name: "Create contact" }).click();
    await page.getByRole("dialog", { name: "Zoe" }).getByRole("button", { name: "Pay" }).click();
    await expect(page).toHaveURL(/\/send\?/);
    await page.getByLabel("Amount (sats)").fill("1000");
    // The privacy control cycles: not a zap, private, public, anonymous.
    await page.getByRole("button", { name: "Privacy: Not available. Change" }).click();
    await page.getByRole("button", { name: "Privacy: Private zap. Change" }).click();
    await expect(page.getByRole("button", { name: "Privacy: Public zap. Change" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm send" }).click();
    const zapSent = page.getByRole("dialog", { name: "Sent" });
    await expect(zapSent).toBeVisible({ timeout: 90_000 });
    await zapSent.getByRole("link", { name: "Home" }).click();
    // The receipt the service published matched A's request: A's row says zapped.
    await expect(page.getByRole("button", { name: /To Zoe.*zapped/ })).toBeVisible({ timeout: 90_000 });

    await other.getByRole("link", { name: "Home" }).first().click();
    await expect(async () => {
      await other.getByRole("tab", { name: "Just me" }).click();
      await other.getByRole("tab", { name: "Friends" }).click();
      await expect(
        other.getByRole("list", { name: "Friends' zaps" }).getByText(`Bob zapped Zoe ${suffix}`),
      ).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(other.getByRole("list", { name: "Friends' zaps" }).getByText("1,000 sats")).toBeVisible();
    // The zap's sender is among B's contacts: its row opens their chat at once.
    await other.getByRole("button", { name: new RegExp(`Bob zapped Zoe ${suffix}`) }).click();
    await expect(other).toHaveURL(/\/chat\//);
  } finally {
    await context.close();
  }
});
