/**
 * `npm run services`: the wallet's own services as one process (see services/app.ts and docs/deploy.md). Every
 * line it writes is JSON (services/log.ts); a problem that stops it at start is one line, and it exits 2.
 */
import { statSync } from "node:fs";
import { StartProblem, startServices } from "./app";
import { ConfigProblem, configFromEnv, settingsSummary } from "./env";
import { jsonLog } from "./log";

const log = jsonLog();

/** The longest a stop takes, sockets open or not (services/app.ts drains within less). */
const STOP_DEADLINE_MS = 12_000;

const refuse = (message: string): never => {
  log.error(`services: ${message}`);
  process.exit(2);
};

/**
 * `--env-file <path>` (or `--env-file=<path>`): the settings read from that file (KEY=value lines) under those
 * of the environment. It holds secrets: a file others may read is named in the log.
 */
const loadEnvFile = () => {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === "--env-file" || a.startsWith("--env-file="));
  if (at < 0) return;
  const path = args[at]!.includes("=") ? args[at]!.slice("--env-file=".length) : args[at + 1];
  if (!path) return refuse("--env-file needs the file's path");
  try {
    if ((statSync(path).mode & 0o077) !== 0)
      log.warn(`${path} may be read by other users: chmod 600 it (it holds the services' secrets)`);
    process.loadEnvFile(path);
  } catch (e) {
    refuse(`--env-file ${path} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
};

const main = async () => {
  loadEnvFile();
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(process.env, (m) => log.warn(m));
  } catch (e) {
    if (!(e instanceof ConfigProblem)) throw e;
    return refuse(e.message);
  }
  log.info("services starting", settingsSummary(process.env, config));
  const running = await startServices(config, { log }).catch((e: unknown) =>
    e instanceof StartProblem ? refuse(e.message) : Promise.reject(e),
  );
  const database = config.databaseUrl
    ? "PostgreSQL"
    : config.dataDir
      ? `the embedded database in ${config.dataDir}`
      : "the embedded database in memory";
  log.info(`services for ${config.network} on ${running.url}, state in ${database}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info("services stopping", { signal });
    // Whatever hangs, the process is gone by this deadline (a supervisor's stop timeout is longer).
    setTimeout(() => {
      log.warn("services stopped before everything closed", { ms: Date.now() - started });
      process.exit(0);
    }, STOP_DEADLINE_MS).unref();
    void running.stop().then(
      () => {
        log.info("services stopped", { ms: Date.now() - started });
        process.exit(0);
      },
      (e: unknown) => {
        log.error("services stopped with a failure", { error: e instanceof Error ? e.message : String(e) });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
};

void main().catch((e) => {
  log.error("services failed", { error: e instanceof Error ? e.message : String(e) });
  process.exit(1);
});
