import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { receiveOverLightning } from "./steps";

test("create, edit and delete a contact, with the contact form's rules shown beside its fields", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await createWallet(page);

  const strip = page.getByRole("list", { name: "Contacts" });
  await strip.getByRole("button", { name: "New" }).click();
  const create = page.getByRole("dialog", { name: "New contact" });
  await create.getByRole("button", { name: "Create contact" }).click();
  await expect(create.getByText("Name is required.")).toBeVisible();
  await expect(create.getByText("A lightning address is required.")).toBeVisible();
  await create.getByLabel("Name").fill("Zed");
  await create.getByLabel("Lightning address").fill("zed at example");
  await create.getByLabel("npub").fill("npub1notakey");
  await create.getByRole("button", { name: "Create contact" }).click();
  await expect(create.getByText("That doesn't look like a lightning address.")).toBeVisible();
  await expect(create.getByText("That doesn't look like a nostr npub.")).toBeVisible();
  await expect(create.getByText("Name is required.")).toBeHidden();
  await create.getByLabel("Lightning address").fill("Zed@Example.com");
  await create.getByLabel("npub").fill("");
  await create.getByRole("button", { name: "Create contact" }).click();

  // The new contact opens in its detail dialog, and sits first in the strip.
  const detail = page.getByRole("dialog", { name: "Zed" });
  await expect(detail.getByText("zed@example.com")).toBeVisible();
  await expect(detail.getByRole("button", { name: "Copy lightning address" })).toBeVisible();
  await expect(strip.getByRole("button", { name: "Zed" })).toBeVisible();

  await detail.getByRole("button", { name: "Edit" }).click();
  await detail.getByLabel("Name").fill("");
  await detail.getByRole("button", { name: "Save" }).click();
  await expect(detail.getByText("Name is required.")).toBeVisible();
  await detail.getByLabel("Name").fill("Zed Shaw");
  await detail.getByRole("button", { name: "Save" }).click();
  const renamed = page.getByRole("dialog", { name: "Zed Shaw" });
  await expect(renamed.getByRole("button", { name: "Pay" })).toBeVisible();
  await expect(strip.getByRole("button", { name: "Zed Shaw" })).toBeVisible();

  // The edit survives a reload: it is in the wallet's log, not the screen's memory.
  await page.reload();
  await strip.getByRole("button", { name: "Zed Shaw" }).click();
  await renamed.getByRole("button", { name: "Edit" }).click();
  await renamed.getByRole("button", { name: "Delete contact" }).click();
  await expect(renamed.getByText("Delete Zed Shaw from your contacts?")).toBeVisible();
  await renamed.getByRole("button", { name: "Delete contact" }).click();
  await expect(renamed).toBeHidden();
  await expect(strip.getByRole("button", { name: "Zed Shaw" })).toBeHidden();
});

test("search a person on nostr, add them, pay their lightning address from the contact, see them on the payment", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  // A person of the local world: a profile on its relay, a lightning address on its LNURL service.
  const suffix = Date.now().toString(36);
  const person = await postJson(esplora, "/nostr/seed", {
    name: `gracec${suffix}`,
    display_name: `Grace ${suffix}`,
  });
  expect(person.lud16).toBeTruthy();

  await createWallet(page);
  // Lightning funds: a receive through a channel the LSP opens just in time.
  await receiveOverLightning(page, esplora, 60_000);

  // Search, named as the navigation names it: a pasted npub finds that person directly, as nostr clients do.
  await page.getByRole("link", { name: "Search" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search");
  await page.getByLabel("Address, invoice or lightning address").fill(person.npub);
  const people = page.getByRole("list", { name: "People on nostr" });
  await expect(people.getByRole("button").filter({ hasText: person.lud16 })).toContainText(`Grace ${suffix}`);
  // A short query finds nobody among the contacts, then the person on nostr after the pause.
  await page.getByLabel("Address, invoice or lightning address").fill(`  gracec${suffix} `);
  await people.getByRole("button", { name: new RegExp(`Grace ${suffix}`) }).click();
  const confirm = page.getByRole("dialog", { name: "Add contact" });
  await expect(confirm.getByText(`Add Grace ${suffix} to your contacts?`)).toBeVisible();
  await confirm.getByRole("button", { name: "Add" }).click();

  const detail = page.getByRole("dialog", { name: `Grace ${suffix}` });
  await expect(detail.getByText(person.lud16)).toBeVisible();
  await expect(detail.getByRole("button", { name: "Copy npub" })).toBeVisible();
  // Their picture from the world's media server, read by the worker.
  await expect(detail.locator(".avatar img")).toBeVisible();
  // Already a contact: the result says so, and the contact list has them.
  await detail.getByRole("button", { name: "Close" }).click();
  await expect(people.getByRole("button", { name: /In your contacts/ })).toBeVisible();
  await page
    .getByRole("button", { name: new RegExp(`Grace ${suffix}`) })
    .first()
    .click();

  await detail.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/send\?/);
  await expect(page.getByTestId("send-contact")).toHaveText(`Paying Grace ${suffix}`);
  await expect(page.getByText(`Pay Grace ${suffix}`)).toBeVisible();
  await page.getByLabel("Amount (sats)").fill("3000");
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent).toBeVisible({ timeout: 60_000 });
  await sent.getByRole("link", { name: "Home" }).click();

  // The payment's row shows the contact.
  await expect(
    page.getByRole("button", { name: new RegExp(`To Grace ${suffix}.*3,000 sats`) }),
  ).toBeVisible();
});
