import { postJson } from "../harness/http";
import { linkUpTo } from "../harness/link";
import { createWallet, expect, test, walletMade } from "./fixtures";
import { eventsOnRelay } from "./relay";
import { freshBrowserPage } from "./steps";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The newest profile of `npub` on the world's relay, read by nostr-tools (not the wallet), signatures checked. */
const profileOnRelay = async (esplora: string, npub: string) => {
  const events = await eventsOnRelay(esplora, npub, 0);
  const newest = events.sort((a, b) => b.created_at - a.created_at)[0];
  return newest ? (JSON.parse(newest.content) as Record<string, unknown>) : null;
};

test("a new wallet creates a profile with a picture; the profile shows it, the relay has it, and a second browser imports the key", async ({
  page,
  esplora,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByRole("button", { name: "New wallet" }).click();
  await expect(page).toHaveURL(/\/newprofile$/);
  await page.getByLabel("Name").fill("Erika Ecash");
  // The picture is chosen with the app's own button, in the page's language (no native file input).
  const chooser = page.waitForEvent("filechooser");
  await page
    .getByRole("group", { name: "Profile picture" })
    .getByRole("button", { name: "Choose a picture" })
    .click();
  await (await chooser).setFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  // The upload's picture replaces the letter.
  await expect(page.locator("img.avatar")).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: "Create profile" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();

  await page.getByRole("link", { name: "Open profile" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-name")).toHaveText("Erika Ecash");
  // What to share: the npub, its QR and a copy button.
  await expect(page.getByTestId("profile-npub")).toHaveText(/^npub1[02-9ac-hj-np-z]{58}$/);
  await expect(page.getByRole("img", { name: "QR code of your public key" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Picture of Erika Ecash" })).toBeVisible();

  // Nostr keys: the npub, and the nsec only once revealed.
  await page.goto("/settings");
  await page.getByRole("link", { name: "Nostr keys" }).click();
  const npub = (await page.getByTestId("npub").textContent()) ?? "";
  expect(npub).toMatch(/^npub1/);
  await expect(page.getByTestId("nsec")).toHaveCount(0);
  await page.getByRole("button", { name: "Reveal private key" }).click();
  const nsec = (await page.getByTestId("nsec").textContent()) ?? "";
  expect(nsec).toMatch(/^nsec1/);
  await page.getByRole("button", { name: "Hide private key" }).click();
  await expect(page.getByTestId("nsec")).toHaveCount(0);

  // Another nostr client reads the signed profile from the world's relay.
  await expect
    .poll(async () => (await profileOnRelay(esplora, npub))?.name, { timeout: 60_000 })
    .toBe("Erika Ecash");
  expect(String((await profileOnRelay(esplora, npub))?.picture)).toContain("/blossom/");

  // A person of the world, added from search and followed: the follow list goes to the relay.
  const suffix = Date.now().toString(36);
  await postJson(esplora, "/nostr/seed", { name: `heidi${suffix}`, display_name: `Heidi ${suffix}` });
  await page.getByRole("link", { name: "Search" }).first().click();
  await page.getByLabel("Address, invoice or lightning address").fill(`heidi${suffix}`);
  await page
    .getByRole("list", { name: "People on nostr" })
    .getByRole("button", { name: new RegExp(`Heidi ${suffix}`) })
    .click();
  await page.getByRole("dialog", { name: "Add contact" }).getByRole("button", { name: "Add" }).click();
  const detail = page.getByRole("dialog", { name: `Heidi ${suffix}` });
  await detail.getByRole("button", { name: "Follow" }).click();
  await expect(detail.getByRole("button", { name: "Unfollow" })).toBeVisible();

  // A second browser: a new wallet imports the same key and shows the same profile and the contact.
  const other = await freshBrowserPage(browser, esplora);
  await other.goto("/");
  await other.getByRole("button", { name: "New wallet" }).click();
  await expect(other).toHaveURL(/\/newprofile$/);
  await other.getByRole("link", { name: "Import an existing profile" }).click();
  await other.getByLabel("Private key (nsec)").fill("nsec1notakey");
  await other.getByRole("button", { name: "Import" }).click();
  await expect(other.getByRole("alert")).toHaveText("Invalid nsec");
  await other.getByLabel("Private key (nsec)").fill(nsec);
  await other.getByRole("button", { name: "Import" }).click();
  await expect(other).toHaveURL(/\/profile$/, { timeout: 60_000 });
  await expect(other.getByTestId("profile-name")).toHaveText("Erika Ecash");
  await expect(other.getByRole("img", { name: "Picture of Erika Ecash" })).toBeVisible();
  await other.goto("/settings/nostrkeys");
  await expect(other.getByTestId("npub")).toHaveText(npub);
  // The follow list made on the first browser comes in as a contact.
  await other.goto("/search");
  await expect(other.getByRole("button", { name: new RegExp(`Heidi ${suffix}`) }).first()).toBeVisible({
    timeout: 60_000,
  });
  await other.context().close();
});

test("an edit made while the relay is unreachable is published once it is reachable again", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  const link = await linkUpTo(esplora);
  try {
    await page.addInitScript(
      (port) => localStorage.setItem("USER_SETTINGS_nostr_relays", `ws://127.0.0.1:${port}/nostr`),
      link.port,
    );
    await createWallet(page);
    await page.goto("/editprofile");
    await page.getByLabel("Name").fill("Olga Online");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.goto("/settings/nostrkeys");
    const npub = (await page.getByTestId("npub").textContent()) ?? "";
    await expect
      .poll(async () => (await profileOnRelay(esplora, npub))?.name, { timeout: 60_000 })
      .toBe("Olga Online");

    // The network to the relay goes away; the owner edits anyway.
    await link.down();
    await page.goto("/editprofile");
    await page.getByLabel("Name").fill("Olga Offline");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("profile-name")).toHaveText("Olga Offline");
    await expect(page.getByText("Waiting for a relay to publish your latest changes.")).toBeVisible();
    expect((await profileOnRelay(esplora, npub))?.name).toBe("Olga Online");

    await page.goto("/settings/nostrkeys");
    await expect(page.getByText("Not connected", { exact: true })).toBeVisible({ timeout: 30_000 });

    // It comes back: the wallet reconnects on its own and the edit goes out.
    await link.up();
    await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 90_000 });
    await page.goto("/profile");
    await expect(page.getByTestId("profile-name")).toHaveText("Olga Offline");
    await expect(page.getByText("Waiting for a relay to publish your latest changes.")).toHaveCount(0, {
      timeout: 90_000,
    });
    expect((await profileOnRelay(esplora, npub))?.name).toBe("Olga Offline");
  } finally {
    await link.down();
  }
});

test("skipping the profile goes home at once, even with no relay reachable, and is remembered", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.addInitScript(() =>
    localStorage.setItem("USER_SETTINGS_nostr_relays", "ws://127.0.0.1:1/nostr"),
  );
  await page.goto("/");
  await page.getByRole("button", { name: "New wallet" }).click();
  await expect(page).toHaveURL(/\/newprofile$/);
  await page.getByRole("button", { name: "Skip" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await walletMade(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("profile_setup_stage"))).toBe("skipped");
  // The profile page offers to create one through editing.
  await page.getByRole("link", { name: "Open profile" }).click();
  await expect(page.getByTestId("profile-name")).toHaveText("No profile yet");
  await expect(page.getByRole("link", { name: "Edit profile" })).toBeVisible();
});

test("with a browser nostr extension, a new wallet goes straight home", async ({ page }) => {
  test.setTimeout(120_000);
  // A NIP-07 extension holds the owner's identity: first run does not ask for a profile.
  await page.addInitScript(() => {
    (window as unknown as { nostr: object }).nostr = { getPublicKey: async () => "" };
  });
  await page.goto("/");
  await page.getByRole("button", { name: "New wallet" }).click();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test("editing the profile checks the lightning address; deleting it leaves only import", async ({ page }) => {
  test.setTimeout(120_000);
  await createWallet(page);
  await page.goto("/editprofile");
  await page.getByLabel("Name").fill("Dora");
  await page.getByLabel("Lightning address").fill("not an address");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toHaveText("That doesn't look like a lightning address.");
  await page.getByLabel("Lightning address").fill("dora@example.com");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-name")).toHaveText("Dora");
  await expect(page.getByTestId("profile-lud16")).toHaveText("dora@example.com");

  await page.goto("/settings/nostrkeys");
  // The nostr servers are settings; a relay must be a WebSocket address.
  await expect(page.getByLabel("Relays (separated by commas)")).toHaveValue(
    /^ws:\/\/127\.0\.0\.1:\d+\/nostr$/,
  );
  await page.getByLabel("Relays (separated by commas)").fill("https://not-a-relay.example");
  await page.getByRole("button", { name: "Save nostr servers" }).click();
  await expect(
    page.getByText("Enter one or more relay addresses starting with wss:// or ws://."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Delete account" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete account" }).click();
  await expect(page.getByText("Profile deleted")).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText("This profile was deleted.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Import profile" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit profile" })).toHaveCount(0);
});
