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
import { frontAvailable, startFront } from "../harness/front";
import { createWallet, expect, test } from "./fixtures";
import {
  buildFor,
  ROOT,
  servicesAndAppPorts,
  startServicesProcess,
  stopProcess,
  worldServicesEnv,
} from "./services-process";
import { fundAndOpenChannel, payWorld } from "./steps";

const OUT_DIR = "dist-services-restart";

test("an open wallet resumes by itself when its services restart: the proxied channel comes back and a payment leaves", async ({
  browser,
  esplora,
}) => {
  test.skip(!frontAvailable("nginx"), "Debian's nginx is not installed (scripts/fronts.mjs installs it)");
  // A production build, a channel's confirmations, two payments and a restart of the services, on two busy
  // cores.
  test.setTimeout(600_000);
  const { servicesPort, appPort } = await servicesAndAppPorts();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), "services-restart-"));
  await buildFor(appUrl, OUT_DIR);

  // The same settings and the same data at each start, as a supervisor restarts the unit.
  const env = await worldServicesEnv(esplora, servicesPort, { DATA_DIR: dataDir });
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
    await payWorld(page, esplora, 1_000, "after 1000", 120_000);

    // systemd's stop, then its start on the same port and data; home stays open all along.
    const stopping = Date.now();
    await stopProcess(services.process);
    const stopMs = Date.now() - stopping;
    services = startServicesProcess(env);
    await healthy(120_000);
    const back = Date.now();

    // The owner pays once the services are back, without reloading or pressing anything else.
    await payWorld(page, esplora, 2_000, "after 2000", 120_000);
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
