import type { FullConfig } from "@playwright/test";
import { startHarness } from "../harness/world";

/** Starts a local regtest world on free ports for this run; tests point the wallet at it. */
export default async function globalSetup(_config: FullConfig) {
  const world = await startHarness({ port: 0 });
  process.env.HARNESS_ESPLORA = world.esploraUrl;
  // The login service's own address: tests ask it for login requests and whether one was used.
  process.env.HARNESS_LNURL_AUTH = new URL(world.lnurlAuthUrl().url).origin;
  return async () => {
    await world.stop();
  };
}
