import { NWCClient } from "@getalby/sdk/nwc";
import type { Browser, BrowserContext, Page, Route } from "@playwright/test";
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import { nip19 } from "nostr-tools";
import { wrapEvent } from "nostr-tools/nip17";
import WebSocket from "ws";
import { postJson } from "../harness/http";
import { test as base, createWallet, expect, fundOnchain, syncNow } from "./fixtures";
import { patientPool } from "./relay";
import { confirmChannel, freshBrowserPage, payWorld, restoreWords } from "./steps";

// Node 20 has no global WebSocket; the outside app and the chat partner in this test process use it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/**
 * A wallet as a person has it after a few weeks, made once per worker and walked by the screens spec:
 * - a 400,000 sats channel with the LSP, confirmed and online; a second one of 120,000 still opening (its
 *   funding transaction waits in the mempool: the world's miner leaves it out of every block, so it stays
 *   unconfirmed however many blocks other tests mine); and a third of 100,000 that never opened (the chain
 *   server refused its funding, so nothing was spent);
 * - 10,000 e-sats at the world's mint, which announces (to this wallet alone, under its own scope) that it
 *   stops serving in three days: its ecash is at risk;
 * - Plus membership (5,000 sats paid from lightning) and a lightning address, `funded-<base36 time>@<host>`;
 * - two contacts: Ann (a nostr person of the world, with an npub and a lightning address) and Ben (a
 *   lightning address only);
 * - a chat with Ann: the owner's message, two of hers, and her request for 5,000 sats;
 * - a wallet-connect connection ("Careful app") whose payment of 1,500 sats waits for approval;
 * - a long history: 20,000 sats of rent paid to the world's node, then 36 tips in from it (`tip 1` of 101
 *   sats to `tip 36` of 136), each in a second of its own and newer than any block, 43 rows in all.
 */
export interface FundedWallet {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Ann's contact id: `/chat/:id` and `/request/:id` open with it. */
  readonly annId: string;
  readonly annName: string;
  /** The member's lightning address, as the profile and Receive show it. */
  readonly address: string;
  /** The end of service the wallet's mint announces (Unix seconds). */
  readonly mintEnds: number;
}

const CHANNEL_SATS = 400_000;
const OPENING_SATS = 120_000;
const REFUSED_SATS = 100_000;
const RENT_SATS = 20_000;
/** The tips the world's node pays in, the history's newest rows: `tip 1` to `tip 36`, 101 to 136 sats. */
export const TIPS = 36;
export const tipSats = (i: number) => 100 + i;

/**
 * Opens `path` as the app's own links do: no reload, so the wallet keeps running (its node stays connected
 * to the LSP, its wallet-connect service listening).
 */
export const navigate = async (page: Page, path: string) => {
  await page.evaluate((r) => {
    history.pushState(null, "", r);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await expect(page).toHaveURL((u) => u.pathname === new URL(path, u).pathname);
};

/** Swaps `sats` of the on-chain balance into a channel with the LSP from home; back on home after. */
const openChannel = async (page: Page, sats: number) => {
  await navigate(page, "/swap");
  await page.getByLabel("Amount (sats)").fill(String(sats));
  await expect(page.getByText(/Network fee: about \d+ sats/)).toBeVisible();
  await page.getByRole("button", { name: "Open channel" }).click();
  await page.getByRole("dialog", { name: "Channel opening" }).getByRole("button", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
};

const build = async (context: BrowserContext, esplora: string, clients: { close: () => void }[]) => {
  const page = await context.newPage();
  await createWallet(page);
  await fundOnchain(page, esplora, 800_000);

  // The channel: opened, in a block, then six more make it usable.
  await openChannel(page, CHANNEL_SATS);
  await confirmChannel(page, esplora, /(39\d|400),\d{3} sats/);
  await navigate(page, "/settings/channels");
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 60_000 });

  // Ecash at the world's mint, paid in by the world's node. The mint, as this wallet reaches it (its own
  // scope), announces it stops serving in three days; every other wallet of the run sees it serving on.
  const scope = `funded-${Date.now().toString(36)}`;
  const mintEnds = Math.floor(Date.now() / 1000) + 3 * 86_400;
  await postJson(esplora, "/hostile", { service: "cashu", scope, mode: "ending", at: mintEnds });
  await navigate(page, "/settings/federations");
  await page.getByLabel("Federation invite code or mint URL").fill(`${esplora}/cashu/hostile/${scope}`);
  await page.getByRole("button", { name: "Add" }).click();
  const mint = page.getByRole("article", { name: "Local World Mint" });
  await expect(mint).toBeVisible({ timeout: 30_000 });
  await mint.getByRole("button", { name: "Receive" }).click();
  await mint.getByLabel("Amount (sats)").fill("10000");
  await mint.getByRole("button", { name: "Create invoice" }).click();
  await postJson(esplora, "/ln/pay", { bolt11: await mint.getByLabel("Lightning invoice").inputValue() });
  await expect(mint.getByTestId("federation-balance")).toHaveText("10,000 e-sats", { timeout: 60_000 });

  // Plus, paid from the channel.
  await navigate(page, "/settings/plus");
  const join = page.getByRole("button", { name: "Join for 5,000 sats" });
  await expect(join).toBeEnabled({ timeout: 90_000 });
  await join.click();
  await expect(page.getByRole("heading", { name: "You are a Plus member" })).toBeVisible({ timeout: 90_000 });
  // The member's lightning address: a name of the same length on every run.
  await navigate(page, "/settings/lightningaddress");
  const name = `funded-${Date.now().toString(36)}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Reserve name" }).click();
  const address = `${name}@${new URL(esplora).host}`;
  await expect(page.getByTestId("lightning-address")).toHaveText(address, { timeout: 30_000 });

  // Contacts: Ann is a person of the world's nostr; Ben has a lightning address only.
  const ann = (await postJson(esplora, "/nostr/seed", {
    name: "annfixture",
    display_name: "Ann Fixture",
    about: "Lunch on Fridays.",
  })) as { npub: string; nsec: string; lud16: string };
  await navigate(page, "/");
  const strip = page.getByRole("list", { name: "Contacts" });
  const addContact = async (name: string, address: string, npub: string) => {
    await strip.getByRole("button", { name: "New" }).click();
    const create = page.getByRole("dialog", { name: "New contact" });
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Lightning address").fill(address);
    await create.getByLabel("npub").fill(npub);
    await create.getByRole("button", { name: "Create contact" }).click();
    return page.getByRole("dialog", { name });
  };
  const ben = await addContact("Ben", "ben@example.com", "");
  await ben.getByRole("button", { name: "Close" }).click();
  await expect(ben).toBeHidden();
  const annDialog = await addContact("Ann", ann.lud16, ann.npub);
  await annDialog.getByRole("link", { name: "Chat" }).click();
  await expect(page).toHaveURL(/\/chat\//);
  const annId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
  const timeline = page.getByRole("list", { name: "Conversation" });

  // The chat: the owner writes, Ann answers twice from her own client and asks for 5,000 sats.
  await page.getByLabel("Message").fill("Hi Ann, lunch was great");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(timeline.getByText("Hi Ann, lunch was great")).toBeVisible();
  await expect(timeline.getByText("waiting for the relay")).toHaveCount(0, { timeout: 60_000 });
  const relay = `${esplora.replace(/^http/, "ws")}/nostr`;
  const annKey = nip19.decode(ann.nsec).data as Uint8Array;
  const me = await walletPubkey(page);
  const pool = patientPool();
  clients.push({ close: () => pool.close([relay]) });
  const { bolt11 } = (await postJson(esplora, "/ln/invoice", {
    amount_sats: 5_000,
    description: "lunch",
  })) as { bolt11: string };
  const texts = ["Glad you liked it!", "My share of the bill is 5,000 sats:", `lightning:${bolt11}`];
  for (const text of texts) {
    await Promise.all(pool.publish([relay], wrapEvent(annKey, { publicKey: me, relayUrl: relay }, text)));
    // Each in its own second, so the conversation keeps their order.
    await new Promise((r) => setTimeout(r, 1_100));
  }
  await navigate(page, "/");
  await navigate(page, `/chat/${encodeURIComponent(annId)}`);
  await expect(timeline.getByText("Glad you liked it!")).toBeVisible({ timeout: 60_000 });
  await expect(timeline.getByText(/requested 5,000 sats$/)).toBeVisible({ timeout: 60_000 });

  // A wallet-connect app that asks for each payment: its payment waits in home's requests.
  await navigate(page, "/settings/connections");
  await page.getByRole("button", { name: "Add connection" }).click();
  const form = page.getByRole("dialog", { name: "Add connection" });
  await form.getByLabel("Name").fill("Careful app");
  await form.getByLabel("Approve payments automatically within the budget").uncheck();
  await form.getByLabel("Budget (sats)").fill("0");
  await form.getByRole("button", { name: "Create connection" }).click();
  const opened = page.getByRole("dialog", { name: "Open it in your app" });
  const uri = await opened.getByLabel("Connection string").inputValue({ timeout: 60_000 });
  await opened.getByRole("button", { name: "Done" }).click();
  await page.getByRole("link", { name: "Home" }).first().click();
  const app = new NWCClient({ nostrWalletConnectUrl: uri });
  clients.push(app);
  const coffee = (await postJson(esplora, "/ln/invoice", { amount_sats: 1_500, description: "coffee" })) as {
    bolt11: string;
  };
  // Answered only when the owner decides; the walk never does.
  app.payInvoice({ invoice: coffee.bolt11 }).catch(() => undefined);
  await expect(page.getByRole("tab", { name: /Requests/ })).toContainText("1 request", { timeout: 60_000 });

  // A long history: a share of the rent paid to the world's node (which leaves the LSP's side of the
  // channel room to pay back), then small tips in, each invoice asked for by the app and paid by the world's
  // node, each in a second of its own so the history's order is theirs.
  // The chain dates its payments by their blocks, which a burst of regtest blocks dates ahead of the clock:
  // the history's new rows wait until the clock has passed the newest block, so they are newer than every
  // payment the chain dated and keep their place above them, run after run.
  const chainTime = async () => {
    const hash = await (await fetch(`${esplora}/blocks/tip/hash`)).text();
    return ((await (await fetch(`${esplora}/block/${hash}`)).json()) as { timestamp: number }).timestamp;
  };
  const newest = await chainTime();
  await expect
    .poll(() => Date.now() / 1000, { timeout: 600_000, intervals: [1_000] })
    .toBeGreaterThan(newest + 1);
  await payWorld(page, esplora, RENT_SATS, "rent share");
  for (let i = 1; i <= TIPS; i++) {
    const { invoice } = await app.makeInvoice({ amount: tipSats(i) * 1_000, description: `tip ${i}` });
    const paid = (await postJson(esplora, "/ln/pay", { bolt11: invoice })) as { status: string };
    expect(paid.status, `tip ${i}`).toBe("succeeded");
    await new Promise((r) => setTimeout(r, 1_100));
  }
  await expect(
    page.getByRole("list", { name: "Activity" }).getByText(`tip ${TIPS}`, { exact: true }),
  ).toBeVisible({
    timeout: 60_000,
  });

  // The second channel: its funding goes out to the mempool, where the world's miner leaves it, so it stays
  // "opening" however many blocks are mined.
  const broadcast = `${esplora}/tx`;
  let held = 0;
  const hold = async (route: Route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const raw = route.request().postData()?.trim() ?? "";
    const txid = Transaction.fromRaw(hex.decode(raw), { allowUnknownOutputs: true }).id;
    await postJson(esplora, "/hold", { txid });
    held++;
    return route.continue();
  };
  await context.route(broadcast, hold);
  await openChannel(page, OPENING_SATS);
  await expect.poll(() => held, { timeout: 60_000 }).toBeGreaterThan(0);
  await navigate(page, "/settings/channels");
  await expect(page.getByText("Opening (1)")).toBeVisible({ timeout: 60_000 });
  await context.unroute(broadcast, hold);

  // The third: the chain server refuses its funding, so it never opens and nothing is spent.
  // (Every later broadcast is refused too: the walk sends nothing.)
  let refused = 0;
  await context.route(broadcast, (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    refused++;
    return route.abort();
  });
  await openChannel(page, REFUSED_SATS);
  await expect.poll(() => refused, { timeout: 60_000 }).toBeGreaterThan(0);
  // The next look at the chain finds the funding on no server: the channel never opened.
  await expect(async () => {
    await navigate(page, "/");
    await syncNow(page);
    await navigate(page, "/settings/channels");
    await expect(page.getByText("Never opened (1)")).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  await expect(page.getByText("Opening (1)")).toBeVisible();
  await expect(page.getByText("Online (1)")).toBeVisible({ timeout: 60_000 });
  return { page, annId, annName: "Ann", address, mintEnds };
};

/**
 * The same words on a second device: the wallet's 12 words read from its backup screen, its node stopped
 * (one device at a time, the storage server's lock given up), then restored in a new browser, whose home is
 * answered once its restore card shows. The first device's page is left on its stopped node.
 */
export const secondDevice = async (browser: Browser, funded: FundedWallet, esplora: string) => {
  const first = funded.page;
  await navigate(first, "/settings/backup");
  await first.getByRole("button", { name: "Show the 12 words" }).click();
  const seed = first.getByRole("list", { name: "Seed words" }).getByRole("listitem");
  await expect(seed).toHaveCount(12);
  const words = (await seed.allTextContents()).map((w) => w.trim());
  await navigate(first, "/settings/admin");
  await expect(first.getByText("Status: running")).toBeVisible({ timeout: 90_000 });
  await first.getByRole("button", { name: "Stop node" }).click();
  await expect(first.getByText("Status: stopped")).toBeVisible();
  const other = await freshBrowserPage(browser, esplora);
  await restoreWords(other, words);
  await expect(other.getByRole("region", { name: "Brought back from your storage server" })).toBeVisible({
    timeout: 120_000,
  });
  return other;
};

/** The wallet's own nostr public key (hex), from its keys screen. */
const walletPubkey = async (page: Page): Promise<string> => {
  const back = page.url();
  await navigate(page, "/settings/nostrkeys");
  const npub = page.getByTestId("npub");
  await expect(npub).toHaveText(/^npub1/, { timeout: 30_000 });
  const decoded = nip19.decode((await npub.textContent())?.trim() ?? "");
  await navigate(page, back);
  return decoded.data as string;
};

/** The screens spec's fixtures: `funded`, one wallet per worker, and everything of ./fixtures. */
export const test = base.extend<object, { funded: FundedWallet }>({
  funded: [
    async ({ browser }, use) => {
      const esplora = process.env.HARNESS_ESPLORA;
      if (!esplora) throw new Error("The regtest world did not start");
      const context = await browser.newContext();
      await context.addInitScript((url) => {
        if (!localStorage.getItem("USER_SETTINGS_esplora"))
          localStorage.setItem("USER_SETTINGS_esplora", url);
        if (!localStorage.getItem("USER_SETTINGS_rgs"))
          localStorage.setItem("USER_SETTINGS_rgs", `${url}/rgs/snapshot/`);
      }, esplora);
      const clients: { close: () => void }[] = [];
      try {
        const made = await build(context, esplora, clients);
        await use({ context, ...made });
      } finally {
        for (const c of clients) c.close();
        await context.close();
      }
    },
    // Two channels, a mint, Plus, a chat and an app, on two busy cores.
    { scope: "worker", timeout: 900_000 },
  ],
});
export { expect };
