/**
 * What one client may ask of the services: a body cap and a rate per route group, each client (the address
 * the proxy counts, services/proxy.ts `clientOf`) with a bucket of a minute's requests that refills
 * steadily. Per process: behind a balancer of N processes a client gets up to N times the rate. docs/deploy.md
 * lists the figures; `RATE_LIMIT_SCALE` multiplies every rate (0 turns them off).
 */

export interface RouteLimit {
  /** Route names (services/http.ts `routeName`) starting with this. */
  readonly prefix: string;
  /** Requests a client may make a minute (and at once, from a full bucket). */
  readonly perMinute: number;
  /** The largest body a request may send. */
  readonly maxBody: number;
}

const KB = 1_000;
const MB = 1_000_000;

/** The groups, the first matching a route applies; a route in none is not limited. */
export const ROUTE_LIMITS: readonly RouteLimit[] = [
  // A wallet writes a channel monitor per payment and reads its stores at each start.
  { prefix: "/storage/", perMinute: 600, maxBody: 4 * MB },
  // A restore scans many addresses.
  { prefix: "/esplora", perMinute: 1_200, maxBody: 1 * MB },
  { prefix: "/lsp", perMinute: 60, maxBody: 64 * KB },
  { prefix: "/rgs", perMinute: 60, maxBody: 0 },
  // Anonymous and large (logs, screenshots): a few an hour.
  { prefix: "/v1/feedback", perMinute: 0.2, maxBody: 4 * MB },
  { prefix: "/hermes/", perMinute: 120, maxBody: 64 * KB },
  { prefix: "/.well-known/lnurlp/", perMinute: 120, maxBody: 0 },
  { prefix: "/plus/", perMinute: 60, maxBody: 64 * KB },
  { prefix: "/primal", perMinute: 300, maxBody: 64 * KB },
];

/** The body cap of a request to `path` (by its route group), or `fallback` when it is in none. */
export const bodyCapOf = (path: string, fallback: number): number =>
  ROUTE_LIMITS.find((l) => path.startsWith(l.prefix))?.maxBody ?? fallback;

/** The most clients' buckets kept; past it the fullest are forgotten first (they lose nothing). */
const MAX_BUCKETS = 100_000;

export const rateLimiter = (scale = 1, now: () => number = Date.now) => {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const sweep = () => {
    const t = now();
    for (const [key, b] of buckets) {
      const limit = ROUTE_LIMITS.find((l) => key.endsWith(`\n${l.prefix}`));
      if (!limit || b.tokens + ((t - b.at) / 60_000) * limit.perMinute * scale >= limit.perMinute * scale)
        buckets.delete(key);
    }
    if (buckets.size > MAX_BUCKETS) buckets.clear();
  };
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  /** Whether `client` may make a request to `route` now (and takes it from its bucket). */
  const admit = (client: string, route: string): boolean => {
    if (scale <= 0) return true;
    const limit = ROUTE_LIMITS.find((l) => route.startsWith(l.prefix));
    if (!limit) return true;
    const capacity = Math.max(1, limit.perMinute * scale);
    const key = `${client}\n${limit.prefix}`;
    const t = now();
    const b = buckets.get(key) ?? { tokens: capacity, at: t };
    b.tokens = Math.min(capacity, b.tokens + ((t - b.at) / 60_000) * limit.perMinute * scale);
    b.at = t;
    buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };
  return { admit, stop: () => clearInterval(timer) };
};
