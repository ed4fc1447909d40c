/**
 * A restart of the wallet's own services with a wallet open on them: a self-hosted build (`VITE_SERVICES`)
 * behind the repository's nginx front, its channel to the LSP through the services' proxy, its channel state
 * in their storage. The services are stopped as systemd stops them (SIGTERM: they drain, closing the proxied
 * socket as going away) and started again on the same port and data directory. The open tab is left alone:
 * no reload, no Restart pressed. A payment made once the services answer again leaves, and home is not left
 * at "Lightning stopped or could not start".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { frontAvailable, startFront } from "../harness/front";
import { postJson } from "../harness/http";
import { createWallet, expect, test } from "./fixtures";
import { buildFor, cleanEnv, freePort, ROOT, startServicesProcess, stopProcess } from "./services-process";
import { fundAndOpenChannel } from "./steps";

const OUT_DIR = "dist-services-restart";

/** Pays an invoice of the world's node for `sats` from home, as the owner does, and goes back home. */
const pay = async (page: Page, esplora: string, sats: number, timeout: number) => {
  const { bolt11 } = (await postJson(esplora, "/ln/invoice", {
    amount_sats: sats,
    description: `after ${sats}`,
  })) as { bolt11: string };
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toContainText(sats.toLocaleString("en-US"));
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  await expect(sent).toBeVisible({ timeout });
  await sent.getByRole("link", { name: "Home" }).click();
};

test("an open wallet resumes by itself when its services restart: the proxied channel comes back and a payment leaves", async ({
  browser,
  esplora,
}) => {
  test.skip(!frontAvailable("nginx"), "Debian's nginx is not installed (scripts/fronts.mjs installs it)");
  // A production build, a channel's confirmations, two payments and a restart of the services, on two busy
  // cores.
  test.setTimeout(600_000);
  const servicesPort = await freePort();
  let appPort = await freePort();
  while (appPort === servicesPort) appPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), "services-restart-"));
  await buildFor(appUrl, OUT_DIR);

  const lsp = (await (await fetch(`${esplora}/ln/info`)).json()) as { address: string };
  // The same settings and the same data at each start, as a supervisor restarts the unit.
  const env = cleanEnv({
    PORT: String(servicesPort),
    NETWORK: "regtest",
    DATA_DIR: dataDir,
    ESPLORA_URL: esplora,
    LSP_URL: esplora,
    PROXY_PORTS: lsp.address.split(":").at(-1)!,
    PROXY_ALLOW_PRIVATE: "1",
    RELAYS: `${esplora.replace(/^http/, "ws")}/nostr`,
    HERMES_SECRET: "5e".repeat(32),
  });
  let services = startServicesProcess(env);
  const front = await startFront("nginx", { port: appPort, appDir: `${ROOT}${OUT_DIR}`, servicesPort });
  const healthy = (timeout: number) =>
    expect
      .poll(async () => (await fetch(`${appUrl}/health`).catch(() => null))?.status ?? 0, {
        timeout,
        message: `services: ${services.output()}`,
      })
      .toBe(200);
  try {
    await healthy(120_000);
    const context = await browser.newContext({ baseURL: appUrl });
    const page = await context.newPage();
    await createWallet(page);
    // A channel to the LSP through the services' proxy (this build reaches no lightning node otherwise),
    // used once: its socket is open.
    await fundAndOpenChannel(page, esplora);
    await pay(page, esplora, 1_000, 120_000);

    // systemd's stop, then its start on the same port and data; home stays open all along.
    const stopping = Date.now();
    await stopProcess(services.process);
    const stopMs = Date.now() - stopping;
    services = startServicesProcess(env);
    await healthy(120_000);
    const back = Date.now();

    // The owner pays once the services are back, without reloading or pressing anything else.
    await pay(page, esplora, 2_000, 120_000);
    console.log(
      `services stopped in ${stopMs} ms; the payment after their return left ${Date.now() - back} ms after /health answered`,
    );
    await expect(page.getByTestId("lightning-balance")).toBeVisible();
    await expect(page.getByText("Lightning stopped or could not start.")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Restart" })).toHaveCount(0);
    await context.close();
  } finally {
    await Promise.all([stopProcess(services.process), front.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
