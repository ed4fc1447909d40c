import type { Page } from "@playwright/test";
import { createWallet, expect, test } from "./fixtures";

/** A lightning node's id, for connection strings nothing answers at. */
const NODE = "02eec7245d6b7d2ccb30380bfbe2a3648cd7a942653f5aa340edcea1f283686619";

/** Types an LSPS connection string and its token in the servers form, and saves it. */
const saveLsps = async (page: Page, connection: string, token: string) => {
  await page.getByLabel("LSPS connection string").fill(connection);
  await page.getByLabel("LSPS token").fill(token);
  await page.getByRole("button", { name: "Save servers" }).click();
};

test("the servers form refuses an onion address and both kinds of lightning server, then saves and reloads", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Servers" }).click();
  await expect(page.getByLabel("Esplora server")).toHaveValue(esplora);

  await page
    .getByLabel("Esplora server")
    .fill("http://abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuv.onion/api");
  await page.getByRole("button", { name: "Save servers" }).click();
  await expect(page.getByRole("alert")).toHaveText("Tor (.onion) addresses are not supported here.");
  await page.getByLabel("Esplora server").fill(esplora);

  await saveLsps(page, `${NODE}@127.0.0.1:9735`, "a-token");
  await expect(page.getByRole("alert")).toHaveText(
    "Use either an LSP address or an LSPS connection string with its token, not both.",
  );

  await page.getByLabel("LSP address").fill("");
  await page.getByLabel("LSPS token").fill("");
  await page.getByRole("button", { name: "Save servers" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Use either an LSP address or an LSPS connection string with its token, not both.",
  );
  await page.getByLabel("LSPS connection string").fill("");
  await page.getByRole("button", { name: "Save servers" }).click();
  await expect(page.getByRole("alert")).toHaveText("An LSP is required.");

  // A lightning service that does not answer is not saved.
  await saveLsps(page, `${NODE}@127.0.0.1:9`, "a-token");
  await expect(page.getByRole("alert")).toHaveText(
    "Failed to make a request to the LSP. The lightning service was not changed.",
    { timeout: 30_000 },
  );
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_lsps_token"))).toBeNull();

  // The world's LSPS2 service answers for its token.
  const { address } = (await (await fetch(`${esplora}/ln/info`)).json()) as { address: string };
  await saveLsps(page, address, "local-world");
  // Saved: the wallet reloads with them.
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
  await page.goto("/settings/servers");
  await expect(page.getByLabel("LSP address")).toHaveValue("");
  await expect(page.getByLabel("LSPS connection string")).toHaveValue(address);
  await expect(page.getByLabel("LSPS token")).toHaveValue("local-world");
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_lsp"))).toBe("");
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_proxy"))).toBeNull();
});

test("the page connects only to its own origin and the configured servers", async ({ page, esplora }) => {
  await createWallet(page);
  const outcome = await page.evaluate(async (allowed) => {
    const blocked: string[] = [];
    document.addEventListener("securitypolicyviolation", (e) => blocked.push(e.violatedDirective));
    const tryFetch = (url: string) =>
      fetch(url).then(
        () => "ok",
        () => "refused",
      );
    const other = await tryFetch("http://127.0.0.1:9/");
    const server = await tryFetch(`${allowed}/blocks/tip/height`);
    await new Promise((r) => setTimeout(r, 100));
    return { other, server, blocked };
  }, esplora);
  expect(outcome).toEqual({ other: "refused", server: "ok", blocked: ["connect-src"] });
});

test("an owner who says the servers are not theirs is warned once on home what happens if they shut down; self-hosted again, the setting is the default", async ({
  page,
  esplora,
}) => {
  await createWallet(page);
  const warning = page.getByRole("dialog", { name: "If these servers shut down" });
  // The local world's servers run on the owner's machine: self-hosted by default, no warning.
  await expect(warning).toHaveCount(0);
  await page.goto("/settings/servers");
  const own = page.getByLabel("I run these servers myself (self-hosted): no shutdown warning");
  await expect(own).toBeChecked();
  await own.uncheck();
  await page.getByRole("button", { name: "Save servers" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(warning).toBeVisible({ timeout: 60_000 });
  await expect(warning).toContainText(new URL(esplora).host);
  await warning.getByRole("button", { name: "Got it" }).click();
  await expect(warning).toHaveCount(0);
  // Seen once: a new start does not show it again.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  await expect(warning).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_selfhosted"))).toBe("false");

  await page.goto("/settings/servers");
  await expect(own).not.toBeChecked();
  await own.check();
  await page.getByRole("button", { name: "Save servers" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("USER_SETTINGS_selfhosted"))).toBeNull();
});
