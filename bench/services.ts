/**
 * `npm run bench:services`: simulated wallets against the wallet's own services, each process started as an
 * operator runs it (`startServices`, bench/services-process.ts) on PostgreSQL when STORAGE_POSTGRES_URL is
 * set (a database of its own), else on the embedded database in a temporary DATA_DIR; the local regtest world
 * (harness/world.ts) is their Esplora and LSP. Prints figures, never fails on time.
 *
 *   storage     for 100, 1,000 and 5,000 active wallets (each with its own keys, through the wallet's own
 *               sealed client): 8 s in which each makes a payment a minute on average (a channel-monitor
 *               write, vss-server's pattern) and one in five of its requests is a read; p50/p99 per call,
 *               CPU and memory of the process, and every acknowledged version read back (a lost write is
 *               counted)
 *   saturation  writes as fast as 64 at a time get answered, on one process, then (PostgreSQL only) on two
 *               processes taken in turn as a round-robin front does
 *   rgs         a mainnet-shaped graph of 10,000 channels in the shared history: the first full snapshot,
 *               then 16 wallets at a time asking for it
 *   proxy       1,000 lightning sockets held open through the proxy to a TCP peer that echoes (a stand-in
 *               for a node: the proxy only moves bytes), a round trip on each, memory per socket
 *   health      /health (the database, the Esplora and LSP checks) asked 50 times in a row
 *
 * Not measured: lightning-address callbacks (each needs the member's own wallet online over wallet-connect,
 * which a simulated wallet is not).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "@noble/hashes/utils.js";
import WebSocket from "ws";
import { startHarness } from "../harness/world";
import { ownPostgresDatabase } from "../services/storage/testing";
import { signedAuthorization } from "../src/engine/storage/auth";
import { authSecretFor, storageKeys, storeIdOf } from "../src/engine/storage/keys";
import { type SealedStore, sealedStore } from "../src/engine/storage/sealed";
import { vssClient } from "../src/engine/storage/vss-client";
import { figure, inSection, summaryTable } from "./figures";

const root = fileURLToPath(new URL("..", import.meta.url));
const LEVELS = [100, 1_000, 5_000];
const STEADY_MS = 8_000;
/** How often a simulated active wallet pays (each payment one channel-monitor write). */
const PAYMENT_EVERY_MS = 60_000;
const MONITOR_BYTES = 6_000;
const SATURATION_MS = 8_000;
const GRAPH_CHANNELS = 10_000;
const SOCKETS = 1_000;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => (Number.isNaN(x) ? "(none)" : `${x.toFixed(x >= 10 ? 0 : 1)} ms`);
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
const usage = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return { cpuS: ticks / 100, rssMb: rss / 1024 };
};

/** The share of one core `pid` used while `work` ran, and its memory at the end. */
const measured = async <T>(pid: number, work: () => Promise<T>) => {
  const before = usage(pid);
  const t0 = performance.now();
  const result = await work();
  const wallS = (performance.now() - t0) / 1000;
  const after = usage(pid);
  return { result, cpu: (after.cpuS - before.cpuS) / wallS, rssMb: after.rssMb, wallS };
};

interface Process {
  readonly url: string;
  readonly child: ChildProcess;
}

const startProcess = (env: Record<string, string>): Promise<Process> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/services-process.ts"], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const read = (d: Buffer) => {
      out += d.toString();
      const url = /\{"url":"([^"]+)"\}/.exec(out)?.[1];
      if (url) resolve({ url, child });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`services exited (${code}): ${out.slice(-2000)}`)));
  });

const stopProcess = (p: Process | null) =>
  new Promise<void>((resolve) => {
    if (!p || p.child.exitCode !== null) return resolve();
    p.child.once("exit", () => resolve());
    p.child.kill("SIGTERM");
  });

/** Runs `task` `concurrency` at a time until `until()` says stop; answers how many finished. */
const closedLoop = async (concurrency: number, until: () => boolean, task: (i: number) => Promise<void>) => {
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!until()) await task(n++);
    }),
  );
  return n;
};

/** A simulated wallet: its own keys, its monitor's version as the server acknowledged it. */
interface Wallet {
  store: (base: string) => SealedStore;
  version: bigint;
  value: Uint8Array;
}

const STORAGE_URL = "https://services.example/storage";

const newWallet = (): Wallet => {
  const keys = storageKeys(randomBytes(32), randomBytes(32));
  const secret = authSecretFor(keys, STORAGE_URL);
  // The wallet signs each request on its own device; one process simulating thousands of them signs once
  // a minute per wallet (the server accepts a signature for minutes, and verifies every request's).
  let signed = { at: Number.NEGATIVE_INFINITY, header: "" };
  const authorization = (nowMs: number) => {
    if (nowMs - signed.at > 60_000) signed = { at: nowMs, header: signedAuthorization(secret, nowMs) };
    return signed.header;
  };
  const stores = new Map<string, SealedStore>();
  // One storage address for every process (as behind a front): the request goes where `base` says.
  const open = (base: string) =>
    sealedStore(
      vssClient({
        url: STORAGE_URL,
        storeId: storeIdOf(keys, "regtest"),
        authorization,
        fetchFn: (input, init) =>
          fetch(
            String(input instanceof Request ? input.url : input).replace("https://services.example", base),
            init,
          ),
      }),
      keys,
    );
  return {
    store: (base) => {
      const kept = stores.get(base) ?? open(base);
      stores.set(base, kept);
      return kept;
    },
    version: 0n,
    value: new Uint8Array(0),
  };
};

/** One payment's write: the wallet's monitor at its next version. */
const write = async (w: Wallet, base: string) => {
  const value = randomBytes(MONITOR_BYTES);
  await w.store(base).put([{ name: "monitor", version: w.version, value }]);
  w.version += 1n;
  w.value = value;
};

const timed = async (into: number[], work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  into.push(performance.now() - t0);
};

const databaseBytes = async (databaseUrl: string | null, dataDir: string) => {
  if (!databaseUrl) {
    const du = (p: string): number =>
      statSync(p).isDirectory() ? readdirSync(p).reduce((s, f) => s + du(join(p, f)), 0) : statSync(p).size;
    return du(dataDir);
  }
  const { default: pg } = await import("pg");
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>("SELECT pg_database_size(current_database())::text AS n");
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
};

const echo: Server = createServer((s) => s.pipe(s));
await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
const echoPort = (echo.address() as { port: number }).port;

const postgres = process.env.STORAGE_POSTGRES_URL;
const db = postgres ? ownPostgresDatabase(postgres, "bench_services") : null;
const dataDir = mkdtempSync(join(tmpdir(), "bench-services-"));
console.log(
  `services on ${db ? "PostgreSQL (STORAGE_POSTGRES_URL, a database of its own)" : "the embedded database (set STORAGE_POSTGRES_URL for PostgreSQL and the two-process figures)"}; load: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
const world = await startHarness({ port: 0 });
await db?.create();
const env = {
  PORT: "0",
  NETWORK: "regtest",
  ESPLORA_URL: world.esploraUrl,
  LSP_URL: world.esploraUrl,
  RELAYS: world.nostr.relayUrl,
  HERMES_SECRET: "11".repeat(32),
  PROXY_PORTS: String(echoPort),
  PROXY_ALLOW_PRIVATE: "1",
  PROXY_PER_CLIENT: String(SOCKETS),
  RATE_LIMIT_SCALE: "0",
  STORAGE_QUOTA_MB: "0",
  BENCH_GRAPH_CHANNELS: String(GRAPH_CHANNELS),
  ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir }),
};
const outcomes: { name: string; outcome: string; ms: number }[] = [];
let one: Process | null = null;
let two: Process | null = null;
try {
  const t0 = performance.now();
  one = await startProcess(env);
  const a = one;
  const pid = a.child.pid!;
  const emptyBytes = await databaseBytes(db?.url ?? null, dataDir);
  console.log(`one process listening: ${usage(pid).rssMb.toFixed(0)} MB resident`);

  // Storage, level by level; the wallets of a level stay for the next.
  inSection("storage");
  const wallets: Wallet[] = [];
  let lost = 0;
  let failed = 0;
  for (const n of LEVELS) {
    while (wallets.length < n) wallets.push(newWallet());
    // Each wallet pays every PAYMENT_EVERY_MS on average (its first payment is its first write): requests
    // spread evenly over the window, one at a time per wallet, one in five a read.
    const puts: number[] = [];
    const gets: number[] = [];
    const perSecond = n / (PAYMENT_EVERY_MS / 1000);
    const busy = new Set<Wallet>();
    const wrote = new Set<Wallet>();
    let levelFailed = 0;
    const steady = await measured(pid, async () => {
      const started = performance.now();
      const pending: Promise<void>[] = [];
      for (let i = 0; performance.now() - started < STEADY_MS; i++) {
        const due = started + (i * 1000) / perSecond;
        if (due > performance.now()) await sleep(due - performance.now());
        let w = wallets[Math.floor(Math.random() * n)]!;
        while (busy.has(w)) w = wallets[Math.floor(Math.random() * n)]!;
        busy.add(w);
        const read = i % 5 === 4 && w.version > 0n;
        if (!read) wrote.add(w);
        pending.push(
          (read ? timed(gets, () => w.store(a.url).get("monitor")) : timed(puts, () => write(w, a.url)))
            .catch(() => {
              levelFailed++;
            })
            .finally(() => busy.delete(w)),
        );
      }
      await Promise.all(pending);
    });
    // Every acknowledged version reads back with its bytes.
    let levelLost = 0;
    const check = [...wrote];
    await closedLoop(
      16,
      () => check.length === 0,
      async () => {
        const w = check.pop();
        if (!w) return;
        const read = await w.store(a.url).get("monitor");
        if (w.version > 0n && (read?.version !== w.version || Buffer.compare(read.value, w.value) !== 0))
          levelLost++;
      },
    );
    lost += levelLost;
    failed += levelFailed;
    const rps = (puts.length + gets.length) / steady.wallS;
    console.log(
      `${n.toLocaleString("en-US")} active wallets, ${rps.toFixed(0)} req/s: put p50 ${ms(pct(puts, 50))} p99 ${ms(pct(puts, 99))}, get p50 ${ms(pct(gets, 50))} p99 ${ms(pct(gets, 99))}; ` +
        `process ${(steady.cpu * 100).toFixed(0)}% of a core, ${steady.rssMb.toFixed(0)} MB; failed ${levelFailed}, lost ${levelLost} of ${wrote.size} written`,
    );
    figure(`${n} wallets: requests/s`, rps, "req/s");
    figure(`${n} wallets: put p50`, pct(puts, 50), "ms");
    figure(`${n} wallets: put p99`, pct(puts, 99), "ms", n === 1_000 ? 100 : undefined);
    if (gets.length > 0) figure(`${n} wallets: get p99`, pct(gets, 99), "ms", n === 1_000 ? 100 : undefined);
    figure(`${n} wallets: process CPU`, steady.cpu * 100, "% core");
    figure(`${n} wallets: process memory`, steady.rssMb, "MB");
  }
  figure("requests failed", failed, "", 0);
  figure("writes lost", lost, "", 0);
  const stored = wallets.filter((w) => w.version > 0n);
  const perWallet = ((await databaseBytes(db?.url ?? null, dataDir)) - emptyBytes) / stored.length;
  console.log(
    `database: ${(perWallet / 1000).toFixed(1)} kB per wallet (one ${MONITOR_BYTES}-byte monitor each)`,
  );
  figure("database per wallet", perWallet / 1000, "kB");

  // Writes as fast as they are answered: one process, then two in turn.
  inSection("saturation");
  const saturate = async (bases: string[]) => {
    const end = performance.now() + SATURATION_MS;
    const lat: number[] = [];
    const busy = new Set<Wallet>();
    const t = performance.now();
    const done = await closedLoop(
      64,
      () => performance.now() > end,
      async (i) => {
        let w = wallets[Math.floor(Math.random() * wallets.length)]!;
        while (busy.has(w)) w = wallets[Math.floor(Math.random() * wallets.length)]!;
        busy.add(w);
        await timed(lat, () => write(w, bases[i % bases.length]!)).finally(() => busy.delete(w));
      },
    );
    return { rps: done / ((performance.now() - t) / 1000), p99: pct(lat, 99) };
  };
  const single = await measured(pid, () => saturate([a.url]));
  console.log(
    `one process: ${single.result.rps.toFixed(0)} writes/s (p99 ${ms(single.result.p99)}), ${(single.cpu * 100).toFixed(0)}% of a core`,
  );
  figure("one process: writes/s", single.result.rps, "req/s");
  if (db) {
    two = await startProcess(env);
    const b = two;
    const pair = await measured(b.child.pid!, () => saturate([a.url, b.url]));
    const ratio = pair.result.rps / single.result.rps;
    console.log(
      `two processes in turn: ${pair.result.rps.toFixed(0)} writes/s (p99 ${ms(pair.result.p99)}), ${ratio.toFixed(2)}× one; the second at ${(pair.cpu * 100).toFixed(0)}% of a core`,
    );
    figure("two processes: writes/s", pair.result.rps, "req/s");
    figure("two processes ÷ one", ratio, "×", 1.7, true);
    await stopProcess(two);
    two = null;
  }

  // Rapid gossip sync from the shared history.
  inSection("rgs");
  for (;;) {
    const h = (await (await fetch(`${a.url}/health`)).json()) as { gossip_channels: number };
    if (h.gossip_channels >= GRAPH_CHANNELS) break;
    await sleep(500);
  }
  const coldStart = performance.now();
  const full = new Uint8Array(await (await fetch(`${a.url}/rgs/snapshot/0`)).arrayBuffer());
  const cold = performance.now() - coldStart;
  const served: number[] = [];
  let asked = 0;
  const rgs = await measured(pid, () =>
    closedLoop(
      16,
      () => asked >= 400,
      async () => {
        asked++;
        await timed(served, async () => (await fetch(`${a.url}/rgs/snapshot/0`)).arrayBuffer());
      },
    ),
  );
  console.log(
    `full snapshot of ${GRAPH_CHANNELS.toLocaleString("en-US")} channels (${(full.length / 1e6).toFixed(2)} MB): first ${ms(cold)}, then ${(served.length / rgs.wallS).toFixed(0)}/s at 16 at a time (p50 ${ms(pct(served, 50))}, p99 ${ms(pct(served, 99))})`,
  );
  figure("full snapshot, first", cold, "ms");
  figure("full snapshots served", served.length / rgs.wallS, "req/s");
  figure("full snapshot p99", pct(served, 99), "ms");

  // Lightning sockets held open through the proxy.
  inSection("proxy");
  const rssBefore = usage(pid).rssMb;
  const openStart = performance.now();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SOCKETS; i += 50)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, SOCKETS - i) }, async () => {
          const ws = new WebSocket(`${a.url.replace(/^http/, "ws")}/v1/127_0_0_1/${echoPort}`);
          await new Promise<void>((resolve, reject) => {
            ws.once("open", () => resolve());
            ws.once("error", reject);
          });
          return ws;
        }),
      )),
    );
  const openMs = performance.now() - openStart;
  const trips: number[] = [];
  await Promise.all(
    sockets.map((ws) =>
      timed(trips, async () => {
        const back = new Promise((r) => ws.once("message", r));
        ws.send(randomBytes(200));
        await back;
      }),
    ),
  );
  await sleep(500);
  const metrics = await (await fetch(`${a.url}/metrics`)).text();
  const open = Number(/^services_proxy_sockets_open (\d+)/m.exec(metrics)?.[1] ?? Number.NaN);
  const perSocket = ((usage(pid).rssMb - rssBefore) * 1024) / SOCKETS;
  console.log(
    `${open} sockets open (metrics) after ${ms(openMs)}; a round trip on every one at once: p50 ${ms(pct(trips, 50))}, p99 ${ms(pct(trips, 99))}; ${perSocket.toFixed(0)} kB of the process per socket`,
  );
  figure("sockets held", open, "");
  figure("round trip p99, all at once", pct(trips, 99), "ms");
  figure("memory per socket", perSocket, "kB");
  for (const ws of sockets) ws.terminate();

  inSection("health");
  const checks: number[] = [];
  for (let i = 0; i < 50; i++)
    await timed(checks, async () => {
      const r = await fetch(`${a.url}/health`);
      if (!r.ok) throw new Error(`/health answered ${r.status}: ${await r.text()}`);
    });
  console.log(`/health: p50 ${ms(pct(checks, 50))}, p99 ${ms(pct(checks, 99))}`);
  figure("/health p50", pct(checks, 50), "ms");
  figure("/health p99", pct(checks, 99), "ms");
  outcomes.push({ name: "services", outcome: "done", ms: performance.now() - t0 });
} catch (e) {
  outcomes.push({
    name: "services",
    outcome: `failed: ${e instanceof Error ? e.message : String(e)}`,
    ms: 0,
  });
} finally {
  await Promise.all([stopProcess(one), stopProcess(two)]);
  await world.stop().catch(() => undefined);
  await db?.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  echo.close();
}
console.log(`\n== Summary ==\n${summaryTable(outcomes)}`);
process.exit(0);
