/** `npm run services`: the wallet's own services as one process (see services/app.ts and docs/deploy.md). */
import { startServices } from "./app";
import { ConfigProblem, configFromEnv } from "./env";

const main = async () => {
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    if (!(e instanceof ConfigProblem)) throw e;
    console.error(`services: ${e.message}`);
    process.exit(2);
  }
  const running = await startServices(config);
  const database = config.databaseUrl ? "PostgreSQL" : "the embedded database (this process only)";
  console.log(`services for ${config.network} on ${running.url}, state in ${database}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void running.stop().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
};

void main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
