/**
 * One process of the wallet's services for `npm run bench:services` (bench/services.ts): `startServices`
 * configured from the environment as `npm run services` is, its rapid gossip sync fed a mainnet-shaped graph
 * (`BENCH_GRAPH_CHANNELS` channels) instead of a gossip node, its log the JSON lines of production. Prints `{"url": …}` once it listens; SIGTERM
 * stops it as it stops in production (drained).
 */
import { startServices } from "../services/app";
import { configFromEnv } from "../services/env";
import { jsonLog } from "../services/log";
import { mainnetChannels } from "./mainnet-graph";

const channels = Number(process.env.BENCH_GRAPH_CHANNELS ?? 0);
const graph = channels > 0 ? mainnetChannels({ nodes: Math.round(channels / 4), channels, seed: 31 }) : [];
// Its log as in production (one JSON line per request): the bench counts the failures in it.
const log = jsonLog();
const running = await startServices(
  configFromEnv(process.env, (m) => log.warn(m)),
  {
    log,
    ...(graph.length > 0 ? { gossipSource: () => graph } : {}),
  },
);
console.log(JSON.stringify({ url: running.url }));
process.on("SIGTERM", () => void running.stop().then(() => process.exit(0)));
