/**
 * What `/health` checks and says: the database answers, the gossip node has peers and fresh gossip, the
 * upstream Esplora and LSP answer. Each check answers null (ok) or what is wrong in a few words; the answer names
 * the failing ones (details of a failure go to the log, once when it starts and once when it ends).
 */
import { boundedFetch, globalFetch } from "../src/engine/http/bounded";
import { describeError, type Log, stateLog } from "./log";

export interface Check {
  readonly name: string;
  /**
   * null when healthy, else a few words saying what is wrong (no addresses, no driver messages) and, for the
   * log only, the details.
   */
  readonly run: () => Promise<Problem | null>;
  /** How long an answer is reused (an upstream is not asked on every `/health`); 0: asked every time. */
  readonly cacheMs?: number;
}

export interface Problem {
  readonly problem: string;
  readonly detail?: Record<string, unknown>;
}

export interface HealthReport {
  readonly ok: boolean;
  readonly checks: Record<string, string>;
  readonly failing: string[];
}

const CHECK_TIMEOUT_MS = 5_000;

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });

const probe = boundedFetch(globalFetch, { timeoutMs: CHECK_TIMEOUT_MS, maxBytes: 100_000 });

/** How the health check's requests name themselves, so an upstream's logs tell them from the wallets'. */
export const HEALTH_USER_AGENT = "wallet-services-health";

/** An upstream HTTP API answers `path` with a 2xx (and, when given, a body `accept` takes). */
export const upstreamCheck = (
  name: string,
  url: string,
  accept: (body: string) => boolean = () => true,
): Check => ({
  name,
  cacheMs: 10_000,
  run: async () => {
    try {
      const r = await probe(url, { headers: { "user-agent": HEALTH_USER_AGENT } });
      const body = await r.text();
      if (r.ok && accept(body)) return null;
      return { problem: `answers ${r.status}`, detail: { url, status: r.status } };
    } catch (e) {
      return { problem: "unreachable", detail: { url, error: describeError(e) } };
    }
  },
});

/** The database answers a query. */
export const databaseCheck = (query: () => Promise<unknown>): Check => ({
  name: "database",
  run: async () => {
    try {
      await withTimeout(query(), CHECK_TIMEOUT_MS, "The database");
      return null;
    } catch (e) {
      return { problem: "unreachable", detail: { error: describeError(e) } };
    }
  },
});

/** Runs the checks (each cached as it says), logging each one's changes of state. */
export const healthChecks = (checks: readonly Check[], log: Log) => {
  const changed = stateLog(log);
  const cached = new Map<string, { at: number; answer: Promise<Problem | null> }>();
  const runOne = (c: Check): Promise<Problem | null> => {
    const hit = cached.get(c.name);
    if (hit && Date.now() - hit.at < (c.cacheMs ?? 0)) return hit.answer;
    const answer = c
      .run()
      .catch((e): Problem => ({ problem: "failed", detail: { error: describeError(e) } }));
    cached.set(c.name, { at: Date.now(), answer });
    return answer;
  };
  const run = async (): Promise<HealthReport> => {
    const answers = await Promise.all(checks.map(async (c) => [c.name, await runOne(c)] as const));
    for (const [name, p] of answers) changed(name, p?.problem ?? null, p?.detail);
    const failing = answers.filter(([, p]) => p !== null).map(([n]) => n);
    return {
      ok: failing.length === 0,
      checks: Object.fromEntries(answers.map(([n, p]) => [n, p?.problem ?? "ok"])),
      failing,
    };
  };
  return { run };
};
