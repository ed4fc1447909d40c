/**
 * Lightning on the world's network (harness/network.ts): a wallet whose one channel goes to the LSP finds
 * its routes in the graph it syncs from the world's rapid gossip sync server. It pays a node four hops past
 * the LSP with no route hint, a payment no single path carries (split, every part settles), around a node
 * taken offline, and, after a reload, again having asked the server only for what changed.
 *
 *                          ┌─ bob ──(1.0M)── carol ──(300k)─┐
 *   wallet ─ lsp ─(5M)─ alice                                 payee
 *                          └─ dave ──(2.0M)── erin ──(600k)──┘
 *
 * Only this spec starts the network (its first /net/ call does); the other specs never wait for it.
 */
import type { Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { createWallet, expect, fundOnchain, syncNow, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

/** This test's own name in the RGS server's log (other tests' wallets sync from the same world). */
const CLIENT = `net-${Date.now().toString(36)}`;

interface RgsRequest {
  readonly since: number;
  readonly kind: "full" | "delta";
  readonly client: string | null;
}

const rgsRequests = async (esplora: string): Promise<RgsRequest[]> =>
  ((await (await fetch(`${esplora}/rgs/requests`)).json()) as RgsRequest[]).filter(
    (r) => r.client === CLIENT,
  );

/** The network starts on its first call: six nodes, seven channels, six confirmations, their gossip. */
const networkUp = async (esplora: string) => {
  await expect(async () => {
    const r = await fetch(`${esplora}/net/map`, { signal: AbortSignal.timeout(240_000) });
    expect(r.ok).toBe(true);
  }).toPass({ timeout: 300_000 });
};

/**
 * Home, moving inside the app as a person would (a page load would start the node again, its channel
 * reconnecting meanwhile).
 */
const home = (page: Page) => page.getByRole("link", { name: "Home" }).first().click();

const invoice = async (esplora: string, sats: number): Promise<string> =>
  (await postJson(esplora, "/net/invoice", { node: "payee", amount_sats: sats })).bolt11;

const send = async (page: Page, bolt11: string, sats: string) => {
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText(sats);
  await page.getByRole("button", { name: "Confirm send" }).click();
};

/** Pays and goes home; answers once the payment's row is there. */
const pay = async (page: Page, bolt11: string, sats: string) => {
  await send(page, bolt11, sats);
  // Several parts, or a retry around a node that is gone, each take a round over five hops.
  await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible({ timeout: 120_000 });
  await page.getByRole("dialog", { name: "Sent" }).getByRole("link", { name: "Home" }).click();
};

/**
 * The details of the payment row of `sats` show its fee and `hops`. Each part's hop count is recorded when
 * the part is fully settled, a moment after the payment: the details are opened again until it is there.
 */
const expectHops = async (page: Page, sats: string, hops: RegExp) => {
  await expect(async () => {
    await page
      .getByRole("button", { name: new RegExp(`-${sats} sats Lightning`) })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Sent" });
    try {
      await expect(dialog.getByText("Fee", { exact: true })).toBeVisible({ timeout: 5000 });
      await expect(dialog.getByTestId("payment-hops")).toHaveText(hops, { timeout: 5000 });
    } finally {
      await dialog.getByRole("button", { name: "Close" }).click();
    }
  }).toPass({ timeout: 60_000 });
};

test("pays past the LSP on routes from rapid gossip sync: four hops, split, around a node that is down, and after a reload from a delta", async ({
  page,
  esplora,
}) => {
  // The network's channels and gossip, then the wallet's own channel with its confirmations, then five
  // payments over five hops, on two busy cores.
  test.setTimeout(600_000);
  await networkUp(esplora);
  await page.addInitScript(
    ([url, client]) => localStorage.setItem("USER_SETTINGS_rgs", `${url}/rgs/c/${client}/snapshot/`),
    [esplora, CLIENT],
  );
  await createWallet(page);
  await fundOnchain(page, esplora, 1_200_000);

  // One channel, to the LSP.
  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await page.getByLabel("Amount (sats)").fill("1000000");
  await page.getByRole("button", { name: "Open channel" }).click();
  await page.getByRole("dialog", { name: "Channel opening" }).getByRole("button", { name: "Home" }).click();
  await expect(async () => {
    await postJson(esplora, "/mine", { blocks: 1 });
    await syncNow(page);
    await expect(page.getByTestId("lightning-balance")).toHaveText(/(9\d\d|1,000),\d{3} sats/, {
      timeout: 2000,
    });
  }).toPass({ timeout: 90_000 });
  await postJson(esplora, "/mine", { blocks: 6 });
  await syncNow(page);
  await page.goto("/settings/channels");
  // Open (no longer waiting for confirmations), its peer connected or connecting: a payment may go.
  await expect(page.getByText(/^(Online|Connecting…) \(1\)$/)).toBeVisible({ timeout: 90_000 });
  await home(page);

  // Home is usable: the graph's first sync is a full snapshot (asked again only by a load that ended
  // before the first was stored); once one is stored, every start asks only for what changed (checked
  // after the reload below).
  await expect
    .poll(async () => (await rgsRequests(esplora)).map((r) => r.kind)[0], { timeout: 60_000 })
    .toBe("full");

  // More than any path into the payee carries, even split (300k + 600k): no route, said so.
  await send(page, await invoice(esplora, 950_000), "950,000");
  const failed = page.getByRole("dialog", { name: "Payment failed" });
  await expect(failed.getByText("No route to the recipient was found.")).toBeVisible({ timeout: 60_000 });
  await failed.getByRole("button", { name: "Close" }).click();
  await home(page);

  // Four hops past the LSP, no route hint: wallet → lsp → alice → bob → carol → payee.
  await pay(page, await invoice(esplora, 50_000), "50,000");
  await expectHops(page, "50,000", /^5$/);

  // 700k fits neither path alone: split, every part settles (each is five hops).
  await pay(page, await invoice(esplora, 700_000), "700,000");
  await expectHops(page, "700,000", /^5, 5(, 5)* \(\d+ parts\)$/);

  // The cheap path's middle node goes away: the payment goes over dave and erin.
  await postJson(esplora, "/net/offline", { node: "bob" });
  try {
    await pay(page, await invoice(esplora, 40_000), "40,000");
  } finally {
    await postJson(esplora, "/net/online", { node: "bob" });
  }

  // A reload starts from the stored graph: the server is asked only for what changed since.
  const before = (await rgsRequests(esplora)).length;
  await page.reload();
  // Paid at once after the reload: the payment waits for the channel's peer if it is still connecting.
  await expect(page.getByRole("link", { name: "Send" }).first()).toBeVisible();
  await pay(page, await invoice(esplora, 20_000), "20,000");
  const after = (await rgsRequests(esplora)).slice(before);
  expect(after.length).toBeGreaterThan(0);
  expect(after.every((r) => r.kind === "delta" && r.since > 0)).toBe(true);
});
