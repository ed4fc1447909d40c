/**
 * `npm run bench:services [section …]`: simulated wallets against the wallet's own services, each process
 * started as an operator runs it (`startServices`, bench/services-process.ts) on PostgreSQL when
 * STORAGE_POSTGRES_URL is set (a database of its own), else on the embedded database in a temporary DATA_DIR;
 * the local regtest world (harness/world.ts) is their Esplora and LSP, and its relay their wallet-connect
 * relay. Every section prints the CPU share and memory of each services process, of the bench itself (the
 * clients, the world and its relay) and the machine's load. Prints figures, never fails on time. Sections
 * (all when none is named):
 *
 *   storage     for 100, 1,000 and 5,000 active wallets (each with its own keys, through the wallet's own
 *               sealed client): 8 s in which each makes a payment a minute on average (a channel-monitor
 *               write, vss-server's pattern) and one in five of its requests is a read; p50/p99 per call,
 *               failures by reason, and every acknowledged version read back (a lost write is counted)
 *   saturation  writes as fast as 64 at a time get answered: on one process directly, then (PostgreSQL and
 *               nginx) through deploy/nginx.conf with an `upstream` of one process, then of two processes
 *               on the same database (round robin); the ratio against the 1.7× target
 *   rgs         a mainnet-shaped graph of 10,000 channels in the shared history: the first full snapshot,
 *               then 16 wallets at a time asking for it
 *   proxy       1,000 lightning sockets held open through the proxy to a TCP peer that echoes (a stand-in
 *               for a node: the proxy only moves bytes), a round trip on each, memory per socket
 *   health      /health (the database, the Esplora and LSP checks) asked 50 times in a row
 *   callbacks   100 Plus members with lightning addresses, each member's wallet online over wallet-connect
 *               (bench/nwc-wallets.ts: nostr-tools, NIP-47 make_invoice answered with a signed BOLT11);
 *               payers ask the LNURL-pay callback 16 at a time, every invoice checked (signature, amount,
 *               the metadata's hash)
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { hex, utf8 } from "@scure/base";
import { getToken } from "nostr-tools/nip98";
import { finalizeEvent } from "nostr-tools/pure";
import WebSocket from "ws";
import { frontAvailable, type RunningFront, startFront } from "../harness/front";
import { startHarness } from "../harness/world";
import { ownPostgresDatabase } from "../services/storage/testing";
import { signedAuthorization } from "../src/engine/storage/auth";
import { authSecretFor, storageKeys, storeIdOf } from "../src/engine/storage/keys";
import { type SealedStore, sealedStore } from "../src/engine/storage/sealed";
import { vssClient } from "../src/engine/storage/vss-client";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { figure, inSection, summaryTable } from "./figures";
import { type NwcWallet, startNwcWallet } from "./nwc-wallets";
import {
  closedLoop,
  databaseBytes,
  freePort,
  load,
  measured,
  ms,
  named,
  type Process,
  pct,
  reasonOf,
  type Share,
  sharesText,
  sleep,
  startProcess,
  stopProcess,
  tally,
  timed,
  usage,
} from "./services-kit";

const SECTIONS = ["storage", "saturation", "rgs", "proxy", "health", "callbacks"] as const;
const asked = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const a of asked)
  if (!(SECTIONS as readonly string[]).includes(a)) {
    console.error(`unknown section ${a}: pick among ${SECTIONS.join(", ")}`);
    process.exit(2);
  }
const runs = (s: (typeof SECTIONS)[number]) => asked.length === 0 || asked.includes(s);

const LEVELS = [100, 1_000, 5_000];
const STEADY_MS = 8_000;
/** How often a simulated active wallet pays (each payment one channel-monitor write). */
const PAYMENT_EVERY_MS = 60_000;
const MONITOR_BYTES = 6_000;
const SATURATION_MS = 8_000;
/** Rounds of one process then two behind the front. */
const ROUNDS = 2;
const GRAPH_CHANNELS = 10_000;
const SOCKETS = 1_000;
const MEMBERS = 100;
const CALLBACK_MS = 10_000;

/** The figures of each process's share (and the bench's own) for a section's summary. */
const shareFigures = (label: string, shares: readonly Share[]) => {
  for (const s of shares) {
    figure(`${label}: ${s.name} CPU`, s.cpu * 100, "% core");
    figure(`${label}: ${s.name} memory`, s.rssMb, "MB");
  }
};

/** Failures of the simulated wallets' requests, by reason (what the socket or the services answered). */
const transport = tally();

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
        fetchFn: async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          try {
            const r = await fetch(url.replace("https://services.example", base), init);
            if (r.status >= 500 || r.status === 429 || r.status === 413 || r.status === 401)
              transport.add(`HTTP ${r.status} on ${url.slice(url.lastIndexOf("/") + 1)}`);
            return r;
          } catch (e) {
            transport.add(reasonOf(e));
            throw e;
          }
        },
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

const echo: Server = createServer((s) => s.pipe(s));
await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
const echoPort = (echo.address() as { port: number }).port;

const postgres = process.env.STORAGE_POSTGRES_URL;
const db = postgres ? ownPostgresDatabase(postgres, "bench_services") : null;
const dataDir = mkdtempSync(join(tmpdir(), "bench-services-"));
const appDir = mkdtempSync(join(tmpdir(), "bench-services-app-"));
chmodSync(appDir, 0o755);
console.log(
  `services on ${db ? "PostgreSQL (STORAGE_POSTGRES_URL, a database of its own)" : "the embedded database (set STORAGE_POSTGRES_URL for PostgreSQL and the two-process figures)"}; sections: ${asked.length > 0 ? asked.join(", ") : "all"}; load ${load()}`,
);
const world = await startHarness({ port: 0 });
await db?.create();
// The operator's wallet for Plus: its subscribe invoices count as paid, so members join without moving money.
const operator = runs("callbacks") ? await startNwcWallet(world.nostr.relayUrl, { settles: true }) : null;
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
  ...(operator ? { PLUS_NWC: operator.uri } : {}),
  ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir }),
};
const outcomes: { name: string; outcome: string; ms: number }[] = [];
let one: Process | null = null;
let two: Process | null = null;
const fronts: RunningFront[] = [];
const members: NwcWallet[] = [];
/** The services' own answers of 4xx/5xx and their error lines, once per section. */
const problemsOf = (...ps: (Process | null)[]) => {
  const lines = ps.flatMap((p, i) =>
    p ? [...p.problems].map(([k, n]) => `${ps.length > 1 ? `process ${i + 1}: ` : ""}${n}× ${k}`) : [],
  );
  for (const p of ps) p?.problems.clear();
  return lines.length === 0 ? "none" : lines.join("; ");
};
try {
  const t0 = performance.now();
  one = await startProcess(env);
  const a = one;
  // PostgreSQL's backends (of every database on it) beside the services when it is the store.
  const postgresGroup: Record<string, () => number[]> = db ? { postgres: named("postgres") } : {};
  const pids = () => ({ services: a.child.pid!, bench: process.pid, ...postgresGroup });
  const emptyBytes = await databaseBytes(db?.url ?? null, dataDir);
  console.log(`one process listening: ${usage(a.child.pid!).rssMb.toFixed(0)} MB resident`);
  const wallets: Wallet[] = [];

  if (runs("storage")) {
    // Level by level; the wallets of a level stay for the next.
    inSection("storage");
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
      const failures = tally();
      transport.clear();
      const steady = await measured(pids(), async () => {
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
              .catch((e) => {
                failures.add(`${read ? "get" : "put"} ${reasonOf(e)}`);
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
      failed += failures.total();
      const rps = (puts.length + gets.length) / steady.wallS;
      const label = `${n.toLocaleString("en-US")} wallets`;
      console.log(
        `${n.toLocaleString("en-US")} active wallets, ${rps.toFixed(0)} req/s: put p50 ${ms(pct(puts, 50))} p99 ${ms(pct(puts, 99))}, get p50 ${ms(pct(gets, 50))} p99 ${ms(pct(gets, 99))}; ` +
          `lost ${levelLost} of ${wrote.size} written\n  ${sharesText(steady)}\n  failed: ${failures.text()}; under them: ${transport.text()}; the services: ${problemsOf(a)}`,
      );
      figure(`${label}: requests/s`, rps, "req/s");
      figure(`${label}: put p50`, pct(puts, 50), "ms");
      figure(`${label}: put p99`, pct(puts, 99), "ms", n === 1_000 ? 100 : undefined);
      if (gets.length > 0) figure(`${label}: get p99`, pct(gets, 99), "ms", n === 1_000 ? 100 : undefined);
      figure(`${label}: failed`, failures.total(), "", 0);
      shareFigures(label, steady.shares);
    }
    figure("requests failed", failed, "", 0);
    figure("writes lost", lost, "", 0);
    const stored = wallets.filter((w) => w.version > 0n);
    const perWallet = ((await databaseBytes(db?.url ?? null, dataDir)) - emptyBytes) / stored.length;
    console.log(
      `database: ${(perWallet / 1000).toFixed(1)} kB per wallet (one ${MONITOR_BYTES}-byte monitor each)`,
    );
    figure("database per wallet", perWallet / 1000, "kB");
  }

  if (runs("saturation")) {
    // Writes as fast as they are answered: one process directly, then through nginx before one, then two.
    inSection("saturation");
    while (wallets.length < 1_000) wallets.push(newWallet());
    const saturate = async (base: string) => {
      const end = performance.now() + SATURATION_MS;
      const lat: number[] = [];
      const busy = new Set<Wallet>();
      const failures = tally();
      transport.clear();
      const t = performance.now();
      const done = await closedLoop(
        64,
        () => performance.now() > end,
        async () => {
          let w = wallets[Math.floor(Math.random() * wallets.length)]!;
          while (busy.has(w)) w = wallets[Math.floor(Math.random() * wallets.length)]!;
          busy.add(w);
          await timed(lat, () => write(w, base))
            .catch((e) => failures.add(reasonOf(e)))
            .finally(() => busy.delete(w));
        },
      );
      const ok = lat.length;
      return {
        rps: ok / ((performance.now() - t) / 1000),
        p99: pct(lat, 99),
        failed: `${done - ok} (${failures.text()}; under them: ${transport.text()})`,
      };
    };
    type Measured = Awaited<ReturnType<typeof measured<Awaited<ReturnType<typeof saturate>>>>>;
    const direct = await measured(pids(), () => saturate(a.url));
    console.log(
      `one process, directly: ${direct.result.rps.toFixed(0)} writes/s (p99 ${ms(direct.result.p99)}), failed ${direct.result.failed}\n  ${sharesText(direct)}`,
    );
    figure("one process: writes/s", direct.result.rps, "req/s");
    shareFigures("one process", direct.shares);
    if (!db) console.log("two processes: skipped (they need PostgreSQL: set STORAGE_POSTGRES_URL)");
    else if (!frontAvailable("nginx")) console.log("two processes: skipped (no nginx at /usr/sbin/nginx)");
    else {
      two = await startProcess(env);
      const b = two;
      const both = {
        "process 1": a.child.pid!,
        "process 2": b.child.pid!,
        bench: process.pid,
        nginx: named("nginx"),
        ...postgresGroup,
      };
      const front = async (ports: number[]) => {
        const f = await startFront("nginx", {
          port: await freePort(),
          appDir,
          servicesPort: 0,
          servicesPorts: ports,
        });
        fronts.push(f);
        return f;
      };
      const toOne = await front([a.port]);
      const toTwo = await front([a.port, b.port]);
      // Taken in turn, round after round, so the machine's other work weighs on both alike.
      const rounds: { one: Measured; two: Measured }[] = [];
      for (let r = 1; r <= ROUNDS; r++) {
        const single = await measured(both, () => saturate(toOne.url));
        console.log(
          `round ${r}, nginx before one process: ${single.result.rps.toFixed(0)} writes/s (p99 ${ms(single.result.p99)}), failed ${single.result.failed}\n  ${sharesText(single)}`,
        );
        const pair = await measured(both, () => saturate(toTwo.url));
        console.log(
          `round ${r}, nginx before two processes (round robin): ${pair.result.rps.toFixed(0)} writes/s (p99 ${ms(pair.result.p99)}), failed ${pair.result.failed}\n  ${sharesText(pair)}`,
        );
        rounds.push({ one: single, two: pair });
      }
      const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
      const oneRps = mean(rounds.map((r) => r.one.result.rps));
      const twoRps = mean(rounds.map((r) => r.two.result.rps));
      const ratio = twoRps / oneRps;
      console.log(
        `over ${ROUNDS} rounds: nginx before one process ${oneRps.toFixed(0)} writes/s, before two ${twoRps.toFixed(0)} writes/s: ${ratio.toFixed(2)}× (target ≥ 1.7×)`,
      );
      const meanShares = (taken: Measured[]) =>
        taken[0]!.shares.map((sh, i) => ({
          name: sh.name,
          cpu: mean(taken.map((m) => m.shares[i]!.cpu)),
          rssMb: taken[taken.length - 1]!.shares[i]!.rssMb,
        }));
      figure("nginx, one process: writes/s", oneRps, "req/s");
      shareFigures("nginx, one process", meanShares(rounds.map((r) => r.one)));
      figure("nginx, two processes: writes/s", twoRps, "req/s");
      shareFigures("nginx, two processes", meanShares(rounds.map((r) => r.two)));
      figure("two processes ÷ one", ratio, "×", 1.7, true);
      console.log(`  the services: ${problemsOf(a, b)}`);
      for (const f of fronts.splice(0)) await f.stop();
      await stopProcess(two);
      two = null;
    }
  }

  if (runs("rgs")) {
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
    let n = 0;
    const rgs = await measured(pids(), () =>
      closedLoop(
        16,
        () => n >= 400,
        async () => {
          n++;
          await timed(served, async () => (await fetch(`${a.url}/rgs/snapshot/0`)).arrayBuffer());
        },
      ),
    );
    console.log(
      `full snapshot of ${GRAPH_CHANNELS.toLocaleString("en-US")} channels (${(full.length / 1e6).toFixed(2)} MB): first ${ms(cold)}, then ${(served.length / rgs.wallS).toFixed(0)}/s at 16 at a time (p50 ${ms(pct(served, 50))}, p99 ${ms(pct(served, 99))})\n  ${sharesText(rgs)}`,
    );
    figure("full snapshot, first", cold, "ms");
    figure("full snapshots served", served.length / rgs.wallS, "req/s");
    figure("full snapshot p99", pct(served, 99), "ms");
    shareFigures("snapshots", rgs.shares);
  }

  if (runs("proxy")) {
    // Lightning sockets held open through the proxy.
    inSection("proxy");
    const rssBefore = usage(a.child.pid!).rssMb;
    const sockets: WebSocket[] = [];
    let openMs = 0;
    const trips: number[] = [];
    const held = await measured(pids(), async () => {
      const openStart = performance.now();
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
      openMs = performance.now() - openStart;
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
    });
    const metrics = await (await fetch(`${a.url}/metrics`)).text();
    const open = Number(/^services_proxy_sockets_open (\d+)/m.exec(metrics)?.[1] ?? Number.NaN);
    const perSocket = ((usage(a.child.pid!).rssMb - rssBefore) * 1024) / SOCKETS;
    console.log(
      `${open} sockets open (metrics) after ${ms(openMs)}; a round trip on every one at once: p50 ${ms(pct(trips, 50))}, p99 ${ms(pct(trips, 99))}; ${perSocket.toFixed(0)} kB of the process per socket\n  ${sharesText(held)}`,
    );
    figure("sockets held", open, "");
    figure("round trip p99, all at once", pct(trips, 99), "ms");
    figure("memory per socket", perSocket, "kB");
    shareFigures("sockets", held.shares);
    for (const ws of sockets) ws.terminate();
  }

  if (runs("health")) {
    inSection("health");
    const checks: number[] = [];
    const asking = await measured(pids(), async () => {
      for (let i = 0; i < 50; i++)
        await timed(checks, async () => {
          const r = await fetch(`${a.url}/health`);
          if (!r.ok) throw new Error(`/health answered ${r.status}: ${await r.text()}`);
        });
    });
    console.log(`/health: p50 ${ms(pct(checks, 50))}, p99 ${ms(pct(checks, 99))}\n  ${sharesText(asking)}`);
    figure("/health p50", pct(checks, 50), "ms");
    figure("/health p99", pct(checks, 99), "ms");
    shareFigures("/health", asking.shares);
  }

  if (runs("callbacks")) {
    // Members join Plus as the app does (NIP-98, their wallet's connection), reserve a name, stay online.
    inSection("callbacks");
    const signed = async (key: Uint8Array, path: string, method: "get" | "post", body?: unknown) => {
      const url = `${a.url}${path}`;
      const auth = await getToken(url, method, (e) => finalizeEvent(e, key), true);
      const r = await fetch(url, {
        method: method.toUpperCase(),
        headers: { authorization: auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!r.ok) throw new Error(`${method.toUpperCase()} ${path} answered ${r.status}: ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    const joinStart = performance.now();
    const names: string[] = [];
    const run = Date.now().toString(36);
    let joining = 0;
    await closedLoop(
      16,
      () => joining >= MEMBERS,
      async () => {
        const i = joining++;
        const wallet = await startNwcWallet(world.nostr.relayUrl);
        members.push(wallet);
        await signed(wallet.clientSecret, "/plus/subscribe", "post", { plan_id: 1, nwc: wallet.uri });
        const sub = await signed(wallet.clientSecret, "/plus/subscription", "get");
        if (sub.active !== true) throw new Error(`member ${i} is not active: ${JSON.stringify(sub)}`);
        const name = `m${i}-${run}`;
        await signed(wallet.clientSecret, "/hermes/names", "post", { name });
        names.push(name);
      },
    );
    console.log(
      `${MEMBERS} members joined Plus and reserved a name in ${ms(performance.now() - joinStart)}, each wallet online over wallet-connect`,
    );
    const host = new URL(a.url).host;
    const failures = tally();
    const lat: number[] = [];
    const end = performance.now() + CALLBACK_MS;
    const paying = await measured(pids(), () =>
      closedLoop(
        16,
        () => performance.now() > end,
        async () => {
          const name = names[Math.floor(Math.random() * names.length)]!;
          const sats = 1 + Math.floor(Math.random() * 100_000);
          const t = performance.now();
          try {
            const r = await fetch(`${a.url}/hermes/pay/${name}?amount=${sats * 1000}`);
            const body = (await r.json()) as { pr?: string; reason?: string };
            if (!r.ok || !body.pr) return void failures.add(`HTTP ${r.status}: ${body.reason ?? "no pr"}`);
            lat.push(performance.now() - t);
            // The payer's checks: a signed invoice of the amount asked, committing to the metadata.
            const inv = decodeBolt11(body.pr);
            const metadata = JSON.stringify([
              ["text/plain", `Payment to ${name}@${host}`],
              ["text/identifier", `${name}@${host}`],
            ]);
            if (
              inv?.amountMsat !== BigInt(sats * 1000) ||
              inv.descriptionHash !== hex.encode(sha256(utf8.decode(metadata)))
            )
              failures.add("the invoice is not the one asked for");
          } catch (e) {
            failures.add(reasonOf(e));
          }
        },
      ),
    );
    const made = members.reduce((s, m) => s + m.made(), 0);
    console.log(
      `lightning-address callbacks, 16 payers at a time: ${(lat.length / paying.wallS).toFixed(1)}/s, p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}; ${made} invoices made by the members' wallets; failed: ${failures.text()}\n  ${sharesText(paying)}\n  the services: ${problemsOf(a)}`,
    );
    figure("callbacks/s", lat.length / paying.wallS, "req/s");
    figure("callback p50", pct(lat, 50), "ms");
    figure("callback p99", pct(lat, 99), "ms");
    figure("callbacks failed", failures.total(), "", 0);
    shareFigures("callbacks", paying.shares);
  }
  outcomes.push({ name: "services", outcome: "done", ms: performance.now() - t0 });
} catch (e) {
  outcomes.push({
    name: "services",
    outcome: `failed: ${e instanceof Error ? e.message : String(e)}`,
    ms: 0,
  });
} finally {
  for (const m of members) m.close();
  operator?.close();
  for (const f of fronts) await f.stop().catch(() => undefined);
  await Promise.all([stopProcess(one), stopProcess(two)]);
  await world.stop().catch(() => undefined);
  await db?.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(appDir, { recursive: true, force: true });
  echo.close();
}
console.log(`\n== Summary ==\n${summaryTable(outcomes)}`);
process.exit(0);
