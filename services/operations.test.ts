/**
 * The services as an operator runs them: the embedded database keeps its state across a restart, a start
 * that would lose state or read a misspelled setting is refused in one line, `/health` fails and names the
 * database while PostgreSQL is away (a front before Debian's PostgreSQL, closed and opened again), answers
 * then carry a catalogue error and no internal address, the log has one JSON line per request and per change
 * of state, and `/metrics` speaks Prometheus' text format.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "@noble/hashes/utils.js";
import { afterAll, describe, expect, test } from "vitest";
import { openSealedStore } from "../src/engine/storage/index";
import { storageKeys } from "../src/engine/storage/keys";
import { ownPostgresDatabase } from "./storage/testing";
import { type RunningServices, startServices } from "./app";
import { configFromEnv, misspelled, SETTINGS, settingsSummary } from "./env";
import { jsonLog } from "./log";

const root = fileURLToPath(new URL("..", import.meta.url));
const postgresUrl = process.env.STORAGE_POSTGRES_URL;
const quiet = () => undefined;
/** An upstream nobody answers on (the discard port, closed here). */
const NOWHERE = "http://127.0.0.1:9";

/** Runs `npm run services` with `env` until it exits; its exit code and output lines. */
const runToExit = (
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; lines: string[] }> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "services/main.ts", ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr?.on("data", (d) => (out += d));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, lines: out.split("\n").filter((l) => l.trim() !== "") }));
  });

describe("starting", () => {
  test("refuses, in one line each, an in-memory store off regtest, a misspelled setting and a database that does not open", async () => {
    const [memory, typo, database] = await Promise.all([
      runToExit({ NETWORK: "signet", DATA_DIR: "memory", HERMES_SECRET: "11".repeat(32) }),
      runToExit({ NETWORK: "regtest", ESPLORA_URL: NOWHERE, PROXY_PER_CLEINT: "4" }),
      runToExit({
        NETWORK: "regtest",
        ESPLORA_URL: NOWHERE,
        HERMES_SECRET: "11".repeat(32),
        DATABASE_URL: "postgresql://wallet:hunter2@127.0.0.1:9/wallet",
      }),
    ]);
    for (const run of [memory, typo, database]) {
      expect(run.code, run.lines.join("\n")).toBe(2);
      const last = JSON.parse(run.lines.at(-1)!) as { level: string; msg: string; time: string };
      expect(last.level).toBe("error");
      expect(Number.isNaN(Date.parse(last.time))).toBe(false);
      // No stack trace anywhere.
      expect(run.lines.join("\n")).not.toMatch(/\n\s+at /);
    }
    expect(JSON.parse(memory.lines.at(-1)!).msg).toMatch(/DATA_DIR=memory .* set DATABASE_URL or a DATA_DIR/);
    expect(JSON.parse(typo.lines.at(-1)!).msg).toMatch(/PROXY_PER_CLEINT .* did you mean PROXY_PER_CLIENT\?/);
    const refused = JSON.parse(database.lines.at(-1)!).msg as string;
    expect(refused).toMatch(
      /the database did not open \(DATABASE_URL postgresql:\/\/wallet:\*\*\*@127\.0\.0\.1:9/,
    );
    expect(database.lines.join("\n")).not.toContain("hunter2");
  }, 300_000);

  test("reads an env file named on its command line, and says when others may read it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "services-env-"));
    try {
      const file = join(dir, "wallet-services.env");
      writeFileSync(file, "NETWORK=signet\nDATA_DIR=memory\n", { mode: 0o644 });
      const run = await runToExit({ HERMES_SECRET: "11".repeat(32) }, ["--env-file", file]);
      expect(run.code).toBe(2);
      const lines = run.lines.map((l) => JSON.parse(l) as { level: string; msg: string });
      expect(lines[0]).toMatchObject({
        level: "warn",
        msg: `${file} may be read by other users: chmod 600 it (it holds the services' secrets)`,
      });
      // The file's settings were in force: signet in memory is refused.
      expect(lines.at(-1)?.msg).toMatch(/DATA_DIR=memory .* on signet/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("defaults to a data directory off regtest and to memory on it; names the settings in force, secrets masked", () => {
    expect(configFromEnv({ NETWORK: "signet", HERMES_SECRET: "11".repeat(32) }).dataDir).toBe("./data");
    expect(configFromEnv({ NETWORK: "regtest", ESPLORA_URL: NOWHERE }, quiet).dataDir).toBeUndefined();
    expect(
      configFromEnv({ NETWORK: "regtest", ESPLORA_URL: NOWHERE, DATA_DIR: "/var/lib/w" }, quiet).dataDir,
    ).toBe("/var/lib/w");
    expect(
      configFromEnv({ NETWORK: "signet", DATA_DIR: "memory", ALLOW_MEMORY_STORE: "1" }, quiet).dataDir,
    ).toBeUndefined();
    expect(misspelled("DATABSE_URL")).toBe("DATABASE_URL");
    expect(misspelled("GOSSIP_PEER")).toBe("GOSSIP_PEERS");
    expect(misspelled("PROXY_PORT")).toBe("PROXY_PORTS");
    expect(misspelled("PLUS_PRICE_SAT")).toBe("PLUS_PRICE_SATS");
    expect(misspelled("PROXY_THING")).not.toBeNull();
    for (const other of ["PATH", "HOME", "HOSTNAME", "NODE_ENV", "SHELL", "TERM", "STORAGE_POSTGRES_URL"])
      expect(misspelled(other), other).toBeNull();
    for (const setting of SETTINGS) expect(misspelled(setting)).toBeNull();
    const env = {
      NETWORK: "signet",
      DATABASE_URL: "postgresql://wallet:hunter2@db:5432/wallet",
      HERMES_SECRET: "ef".repeat(32),
      PLUS_NWC: `nostr+walletconnect://${"ab".repeat(32)}?relay=wss%3A%2F%2Fr.example&secret=${"cd".repeat(32)}`,
    };
    const summary = JSON.stringify(settingsSummary(env, configFromEnv(env, quiet)));
    expect(summary).toContain("postgresql://wallet:***@db:5432/wallet");
    expect(summary).toContain("secret=***");
    expect(summary).not.toContain("hunter2");
    expect(summary).not.toContain("ef".repeat(32));
    expect(summary).not.toContain("cd".repeat(32));
  });
});

describe("the embedded database", () => {
  const dir = mkdtempSync(join(tmpdir(), "services-data-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("keeps what was stored across a restart of the services", async () => {
    const configOn = (port: number) =>
      configFromEnv(
        {
          PORT: String(port),
          NETWORK: "signet",
          ESPLORA_URL: NOWHERE,
          DATA_DIR: dir,
          HERMES_SECRET: "11".repeat(32),
        },
        quiet,
      );
    const keys = storageKeys(randomBytes(32), randomBytes(32));
    const store = (s: RunningServices) =>
      openSealedStore({ url: `${s.url}/storage`, keys, network: "signet" });
    // The wallet's storage key is its server's: the restarted services answer at the same address.
    const first = await startServices(configOn(0));
    const config = configOn(Number(new URL(first.url).port));
    try {
      await store(first).put([{ name: "monitor", version: 0n, value: new TextEncoder().encode("channel") }]);
    } finally {
      await first.stop();
    }
    const second = await startServices(config);
    try {
      const read = await store(second).get("monitor");
      expect(read?.version).toBe(1n);
      expect(new TextDecoder().decode(read?.value)).toBe("channel");
    } finally {
      await second.stop();
    }
  }, 120_000);
});

/** A TCP front before PostgreSQL that can be taken away (every connection cut, none taken) and brought back. */
const postgresFront = async (target: URL) => {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => s.destroy());
          s.on("close", () => {
            sockets.delete(s);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  await up();
  return { port: () => port, up, down };
};

describe.skipIf(!postgresUrl)("while PostgreSQL is away", () => {
  const db = ownPostgresDatabase(postgresUrl ?? "", "services_ops");
  let services: RunningServices | undefined;
  let front: Awaited<ReturnType<typeof postgresFront>> | undefined;
  const lines: Record<string, unknown>[] = [];
  afterAll(async () => {
    await services?.stop();
    await front?.down();
    await db.drop();
  });

  test("/health fails naming the database, answers carry no internal address, and the log says when it went and came back", async () => {
    await db.create();
    front = await postgresFront(new URL(db.url));
    const url = new URL(db.url);
    url.port = String(front.port());
    url.hostname = "127.0.0.1";
    services = await startServices(
      configFromEnv(
        {
          PORT: "0",
          NETWORK: "regtest",
          ESPLORA_URL: NOWHERE,
          DATABASE_URL: url.toString(),
          HERMES_SECRET: "11".repeat(32),
        },
        quiet,
      ),
      { log: jsonLog((l) => lines.push(JSON.parse(l))) },
    );
    const health = async () => {
      const r = await fetch(`${services!.url}/health`);
      return {
        status: r.status,
        body: (await r.json()) as { ok: boolean; checks: Record<string, string>; failing?: string[] },
      };
    };
    const before = await health();
    expect(before.body.checks.database).toBe("ok");
    // Esplora is away all along: named, and the database is not.
    expect(before.status).toBe(503);
    expect(before.body.failing).toEqual(["esplora"]);

    await front.down();
    const during = await health();
    expect(during.status).toBe(503);
    expect(during.body.failing).toEqual(["database", "esplora"]);
    expect(during.body.checks.database).toBe("unreachable");
    const payer = await fetch(`${services.url}/.well-known/lnurlp/satoshi`);
    expect(payer.status).toBe(503);
    const answer = await payer.text();
    expect(JSON.parse(answer)).toEqual({
      status: "ERROR",
      error: "database_unavailable",
      reason: "The service's database is not answering. Try again in a moment.",
    });
    expect(answer).not.toMatch(/127\.0\.0\.1|ECONN|:\d{2,5}/);
    const metrics = await (await fetch(`${services.url}/metrics`)).text();
    expect(metrics).toMatch(/^services_database_errors_total [1-9]\d*$/m);

    await front.up();
    await expect.poll(async () => (await health()).body.checks.database, { timeout: 30_000 }).toBe("ok");
    const went = lines.filter((l) => l.check === "database");
    expect(went.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "database failing"],
      ["info", "database back"],
    ]);
    // The failure's details are in the log, not in the answer.
    expect(
      lines.some((l) => l.msg === "request failed" && /ECONNREFUSED|connect/.test(String(l.error))),
    ).toBe(true);
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.find((l) => l.route === "/.well-known/lnurlp/*")).toMatchObject({
      method: "GET",
      status: 503,
    });
    for (const l of lines) expect(Number.isNaN(Date.parse(String(l.time)))).toBe(false);
  }, 120_000);

  test("/metrics speaks Prometheus' text format", async () => {
    const text = await (await fetch(`${services!.url}/metrics`)).text();
    expect(text).toMatch(/^# TYPE services_requests_total counter$/m);
    expect(text).toMatch(/^services_requests_total\{route="\/health",method="GET",status="503"\} \d+$/m);
    expect(text).toMatch(
      /^services_request_duration_seconds_bucket\{route="\/health",method="GET",le="\+Inf"\} \d+$/m,
    );
    expect(text).toMatch(/^services_proxy_sockets_open 0$/m);
    expect(text).toMatch(/^services_storage_bytes 0$/m);
    expect(text).toMatch(/^services_gossip_channels 0$/m);
    // Every line is a comment or `name{labels} value`.
    for (const line of text.trim().split("\n"))
      expect(line).toMatch(/^(# (HELP|TYPE) .+|[a-z_]+(\{[^}]*\})? [-+0-9.eNaInf]+)$/);
  });
});
