/**
 * What `npm run bench:services` (bench/services.ts) measures with: services processes started as an operator
 * runs them (bench/services-process.ts), the CPU share and memory of each read from /proc, the load of the
 * machine, closed loops of simulated clients, percentiles, and failures counted by their reason.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
export const ms = (x: number) => (Number.isNaN(x) ? "(none)" : `${x.toFixed(x >= 10 ? 0 : 1)} ms`);
export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
export const usage = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return { cpuS: ticks / 100, rssMb: rss / 1024 };
};

export interface Share {
  readonly name: string;
  /** Of one core, over the work's wall time. */
  readonly cpu: number;
  readonly rssMb: number;
}

/** The processes named `comm` (PostgreSQL's backends, nginx's workers), as a group. */
export const named = (comm: string) => () =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, "utf8").trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);

const cpuOf = (pids: readonly number[]) => {
  const m = new Map<number, { cpuS: number; rssMb: number }>();
  for (const pid of pids) {
    try {
      m.set(pid, usage(pid));
    } catch {
      // gone meanwhile
    }
  }
  return m;
};

/**
 * The share of a core each of `pids` (a process, or a group of them) used while `work` ran, and its
 * resident memory at the end (a group's memory counts the memory its processes share once per process).
 */
export const measured = async <T>(
  pids: Record<string, number | (() => number[])>,
  work: () => Promise<T>,
) => {
  const names = Object.keys(pids);
  const list = (n: string) => {
    const p = pids[n]!;
    return typeof p === "number" ? [p] : p();
  };
  const before = names.map((n) => cpuOf(list(n)));
  const t0 = performance.now();
  const result = await work();
  const wallS = (performance.now() - t0) / 1000;
  const shares: Share[] = names.map((name, i) => {
    const after = cpuOf(list(name));
    let cpuS = 0;
    let rssMb = 0;
    for (const [pid, u] of after) {
      cpuS += u.cpuS - (before[i]!.get(pid)?.cpuS ?? 0);
      rssMb += u.rssMb;
    }
    return { name, cpu: cpuS / wallS, rssMb };
  });
  return { result, wallS, shares, load: load() };
};

/** "services 44% of a core, 443 MB; …; load 5.1 4.8 4.0" */
export const sharesText = (m: { shares: readonly Share[]; load: string }) =>
  `${m.shares.map((s) => `${s.name} ${(s.cpu * 100).toFixed(0)}% of a core, ${s.rssMb.toFixed(0)} MB`).join("; ")}; load ${m.load}`;

export interface Process {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The process's error and warning log lines, counted by their message and error. */
  readonly problems: Map<string, number>;
}

export const startProcess = (env: Record<string, string>): Promise<Process> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/services-process.ts"], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const problems = new Map<string, number>();
    let started = false;
    let head = "";
    let partial = "";
    // One JSON line per request: only the line ends are kept, and only problems are counted.
    const read = (d: Buffer) => {
      const lines = (partial + d.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!started) {
          head = (head + line).slice(-4000);
          const url = /\{"url":"([^"]+)"\}/.exec(line)?.[1];
          if (url) {
            started = true;
            resolve({ url, port: Number(new URL(url).port), child, problems });
          }
        }
        if (/"msg":"request"/.test(line) && /"status":[45]\d\d/.test(line)) {
          const l = JSON.parse(line) as { route?: string; status?: number };
          const key = `answered ${l.status} on ${l.route}`;
          problems.set(key, (problems.get(key) ?? 0) + 1);
          continue;
        }
        if (!/"level":"(error|warn)"/.test(line)) continue;
        try {
          const l = JSON.parse(line) as { msg?: string; message?: string; route?: string; error?: unknown };
          const key = `${l.msg ?? l.message ?? "?"}${l.route ? ` ${l.route}` : ""}${l.error ? `: ${JSON.stringify(l.error).slice(0, 200)}` : ""}`;
          problems.set(key, (problems.get(key) ?? 0) + 1);
        } catch {
          problems.set(line.slice(0, 200), (problems.get(line.slice(0, 200)) ?? 0) + 1);
        }
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) =>
      reject(new Error(`services exited (${code}): ${head}${partial.slice(-2000)}`)),
    );
  });

export const stopProcess = (p: Process | null) =>
  new Promise<void>((resolve) => {
    if (!p || p.child.exitCode !== null) return resolve();
    p.child.once("exit", () => resolve());
    p.child.kill("SIGTERM");
  });

/** Runs `task` `concurrency` at a time until `until()` says stop; answers how many finished. */
export const closedLoop = async (
  concurrency: number,
  until: () => boolean,
  task: (i: number) => Promise<void>,
) => {
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!until()) await task(n++);
    }),
  );
  return n;
};

export const timed = async (into: number[], work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  into.push(performance.now() - t0);
};

/** Failures counted by their reason (an HTTP status, a socket's error code, an error's name). */
export const tally = () => {
  const counts = new Map<string, number>();
  return {
    add: (reason: string) => counts.set(reason, (counts.get(reason) ?? 0) + 1),
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    text: () =>
      counts.size === 0
        ? "none"
        : [...counts]
            .sort((a, b) => b[1] - a[1])
            .map(([r, n]) => `${n}× ${r}`)
            .join("; "),
    clear: () => counts.clear(),
  };
};

/** A thrown error's reason: its name, the socket error code under it, its message. */
export const reasonOf = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e).slice(0, 120);
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = (e as { code?: string }).code ?? cause?.code;
  return `${e.name}${code ? ` ${code}` : ""}: ${(cause?.message ?? e.message).slice(0, 120)}`;
};

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export const databaseBytes = async (databaseUrl: string | null, dataDir: string) => {
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
