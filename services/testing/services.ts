/**
 * The services as a test starts them, in this process: on a free port, for regtest, reaching no Esplora and
 * no relay (port 9 answers nothing), with a fixed Hermes secret and no warnings printed; `env` sets anything
 * else or instead, as the operator's environment would.
 */
import { type RunningServices, startServices } from "../app";
import { configFromEnv } from "../env";

/** The settings of a test's services that reach nothing outside. */
export const TEST_ENV = {
  PORT: "0",
  NETWORK: "regtest",
  ESPLORA_URL: "http://127.0.0.1:9",
  RELAYS: "ws://127.0.0.1:9",
  HERMES_SECRET: "11".repeat(32),
} as const;

export const startTestServices = (
  env: Record<string, string> = {},
  opts?: Parameters<typeof startServices>[1],
): Promise<RunningServices> =>
  startServices(
    configFromEnv({ ...TEST_ENV, ...env }, () => undefined),
    opts,
  );
