/**
 * Off regtest's servers (issue 35): a self-hosted build, whose only server setting is the URL of the wallet's
 * own services (`VITE_SERVICES`), against a `services` process started apart from the world and configured
 * as a deployment is, by environment variables only: pointed at the world's chain (its Esplora API) and its
 * LSP as it would be at signet's, its proxy allowed onto loopback (the world's nodes listen there) but only on
 * the LSP's port, its rapid gossip sync fed by the world's nodes. The wallet is created, receives on-chain,
 * opens a channel through the services' proxy, pays a node four hops past the LSP on routes from the
 * services' gossip, joins Plus (paid to the operator's wallet over wallet-connect) and reserves a lightning
 * address at the services, is paid there while its tab is closed (the services' lightning-address service
 * mints at the owner's mint and leaves the token on the relay), and a second browser restores it from the
 * services' storage and receives that payment.
 *
 * The app and the services share one host name as an operator serves them: Debian's nginx runs the
 * repository's deploy/nginx.conf on loopback (harness/front.ts) before the build's files and the services.
 * Both run on the world's one relay: the services are told it (`RELAYS`) and publish it, and the wallet takes
 * it from them (`/.well-known/wallet-services.json`), as it would a community's own relays.
 *
 * The build and the process are this spec's alone: they are made here (the build while the world's network
 * starts), so a run of any other spec pays nothing for them.
 */
import type { Browser, Page } from "@playwright/test";
import { frontAvailable, startFront } from "../harness/front";
import { postJson } from "../harness/http";
import { createWallet, expect, stopNode, test } from "./fixtures";
import {
  buildFor,
  ROOT,
  servicesAndAppPorts,
  startServicesProcess,
  stopProcess,
  worldLspAddress,
  worldServicesEnv,
} from "./services-process";
import { fundAndOpenChannel, joinWorldMint, restoreWords, seedWords } from "./steps";

const OUT_DIR = "dist-selfhosted";

interface NetMap {
  readonly nodes: Record<string, { online: boolean; address: string | null }>;
  readonly channels: unknown[];
}

/** The world's network starts on its first call (shared with network.spec.ts): its nodes and channels. */
const networkUp = async (esplora: string): Promise<NetMap> => {
  let map: NetMap | null = null;
  await expect(async () => {
    const r = await fetch(`${esplora}/net/map`, { signal: AbortSignal.timeout(240_000) });
    expect(r.ok).toBe(true);
    map = (await r.json()) as NetMap;
  }).toPass({ timeout: 300_000 });
  return map!;
};

/** A page in a browser of its own on the self-hosted app. */
const appIn = async (browser: Browser, appUrl: string): Promise<Page> => {
  const context = await browser.newContext({ baseURL: appUrl });
  return context.newPage();
};

test("a self-hosted build on the wallet's own services: on-chain, a channel through their proxy, a payment four hops away on their gossip, Plus and a lightning address paid while the tab is closed, and a restore from their storage", async ({
  browser,
  esplora,
}) => {
  test.skip(!frontAvailable("nginx"), "Debian's nginx is not installed (scripts/fronts.mjs installs it)");
  // A production build, the world's network, a gossip node learning it, a channel's confirmations, a
  // payment over five hops and a restore, on two busy cores.
  test.setTimeout(900_000);
  const { servicesPort, appPort } = await servicesAndAppPorts();
  // The app and the services on one origin, the front's.
  const appUrl = `http://127.0.0.1:${appPort}`;
  const servicesUrl = appUrl;
  const [map] = await Promise.all([networkUp(esplora), buildFor(servicesUrl, OUT_DIR)]);

  // The operator's own wallet, which Plus is paid to.
  const operator = (await (await fetch(`${esplora}/ln/operator-nwc`)).json()) as { uri: string };
  const peers = [
    await worldLspAddress(esplora),
    ...Object.values(map.nodes).flatMap((n) => (n.address ? [n.address] : [])),
  ];
  const services = startServicesProcess(
    await worldServicesEnv(esplora, servicesPort, { GOSSIP_PEERS: peers.join(","), PLUS_NWC: operator.uri }),
  );
  const front = await startFront("nginx", {
    port: appPort,
    appDir: `${ROOT}${OUT_DIR}`,
    servicesPort,
  });
  try {
    // The services' gossip node has learned every public channel of the network before the wallet's first
    // sync asks for them.
    await expect
      .poll(
        async () => {
          const health = await fetch(`${servicesUrl}/health`).catch(() => null);
          return health?.ok ? ((await health.json()) as { gossip_channels: number }).gossip_channels : -1;
        },
        { timeout: 300_000, message: `services: ${services.output()}` },
      )
      .toBeGreaterThanOrEqual(map.channels.length);

    const page = await appIn(browser, appUrl);
    await createWallet(page);
    // Every server is the services' (nothing was set on this device).
    await page.goto("/settings/servers");
    await expect(page.getByLabel("Websockets proxy")).toHaveValue(servicesUrl.replace(/^http/, "ws"));
    await expect(page.getByLabel("Esplora server")).toHaveValue(`${servicesUrl}/esplora`);
    await expect(page.getByLabel("Rapid gossip sync server")).toHaveValue(`${servicesUrl}/rgs/snapshot/`);
    await expect(page.getByLabel("Storage server")).toHaveValue(`${servicesUrl}/storage`);
    await expect(page.getByLabel("LSP address")).toHaveValue(`${servicesUrl}/lsp`);
    await page.goto("/");

    // On-chain through the services' Esplora, then a channel to the LSP through their proxy (the only way
    // this build reaches a lightning node).
    await fundAndOpenChannel(page, esplora);

    // Four hops past the LSP, no route hint: the route comes from the services' rapid gossip sync.
    const { bolt11 } = await postJson(esplora, "/net/invoice", { node: "payee", amount_sats: 30_000 });
    await page.getByRole("link", { name: "Send" }).first().click();
    await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
    await expect(page.getByTestId("send-request")).toContainText("30,000");
    await page.getByRole("button", { name: "Confirm send" }).click();
    await expect(page.getByRole("dialog", { name: "Sent" })).toBeVisible({ timeout: 120_000 });
    await page.getByRole("dialog", { name: "Sent" }).getByRole("link", { name: "Home" }).click();

    // Plus from the services, then a lightning address at them; the world's mint receives for it while
    // the tab is closed.
    // Within the app, without a page load: the node keeps its channel, which pays for Plus.
    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.getByRole("link", { name: /^Join Plus/ }).click();
    const join = page.getByRole("button", { name: "Join for 5,000 sats" });
    await expect(join).toBeEnabled({ timeout: 60_000 });
    await join.click();
    await expect(page.getByRole("heading", { name: "You are a Plus member" })).toBeVisible({
      timeout: 90_000,
    });
    const mint = `${esplora}/cashu`;
    await joinWorldMint(page, mint);
    await page.goto("/settings/lightningaddress");
    await expect(page.getByLabel("While the app is closed, receive into")).toHaveValue(mint);
    const name = `self-${Date.now().toString(36)}`;
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Reserve name" }).click();
    await expect(page.getByTestId("lightning-address")).toHaveText(`${name}@${new URL(servicesUrl).host}`, {
      timeout: 30_000,
    });

    // The words, then the node stops (giving the storage server's device lock up) and the tab closes.
    const words = await seedWords(page);
    await stopNode(page);
    await page.context().close();

    // An outside payer pays name@services while no tab of the wallet is open.
    const params = (await (await fetch(`${servicesUrl}/.well-known/lnurlp/${name}`)).json()) as {
      callback: string;
    };
    const { pr } = (await (
      await fetch(`${params.callback}?amount=1500000&comment=${encodeURIComponent("paid while closed")}`)
    ).json()) as { pr: string };
    expect((await postJson(esplora, "/ln/pay", { bolt11: pr })).status).toBe("succeeded");

    // A second browser restores the words from the services' storage.
    const other = await appIn(browser, appUrl);
    await restoreWords(other, words);
    const found = other.getByRole("region", { name: "Brought back from your storage server" });
    await expect(found).toBeVisible({ timeout: 120_000 });
    await expect(found).toContainText(/1 channel holding 1\d\d,\d{3} sats/);
    await found.getByRole("button", { name: "Got it" }).click();
    await expect(other.getByRole("button", { name: /30,000 sats Lightning/ })).toBeVisible();
    // The payment made while the tab was closed waited on the relay: it is redeemed at the owner's mint.
    await expect(other.getByRole("button", { name: /paid while closed.*1,500/ })).toBeVisible({
      timeout: 120_000,
    });
    await other.context().close();
  } finally {
    await Promise.all([stopProcess(services.process), front.stop()]);
  }
});
