/**
 * The wallet's own services as an operator runs them, for the specs that need them (selfhosted.spec.ts,
 * services-restart.spec.ts): a production build made for them, and `npm run services` as a process of its
 * own, configured by environment variables only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export const ROOT = new URL("..", import.meta.url).pathname;
export const BIN = `${ROOT}node_modules/.bin`;

const listens = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });

/**
 * A free port below the range the system hands out to outgoing connections (32768 on): it is chosen before
 * the build and taken minutes later, and the run's many connections in between never land on it.
 */
export const freePort = async (): Promise<number> => {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await listens(port)) return port;
  }
};

/** Two different free ports on this host: the services' own, and the front's that serves the app. */
export const servicesAndAppPorts = async (): Promise<{ servicesPort: number; appPort: number }> => {
  const servicesPort = await freePort();
  let appPort = await freePort();
  while (appPort === servicesPort) appPort = await freePort();
  return { servicesPort, appPort };
};

/** The lightning address (`pubkey@host:port`) of the world's LSP at `esplora`. */
export const worldLspAddress = async (esplora: string): Promise<string> =>
  ((await (await fetch(`${esplora}/ln/info`)).json()) as { address: string }).address;

/**
 * The services' settings on `servicesPort` for the local world at `esplora`: its Esplora and LSP API, a
 * proxy to its LSP's lightning port (a private address), its relay; `extra` adds to them or overrides them.
 */
export const worldServicesEnv = async (
  esplora: string,
  servicesPort: number,
  extra: Record<string, string> = {},
): Promise<NodeJS.ProcessEnv> =>
  cleanEnv({
    PORT: String(servicesPort),
    NETWORK: "regtest",
    ESPLORA_URL: esplora,
    LSP_URL: esplora,
    PROXY_PORTS: (await worldLspAddress(esplora)).split(":").at(-1)!,
    PROXY_ALLOW_PRIVATE: "1",
    RELAYS: `${esplora.replace(/^http/, "ws")}/nostr`,
    HERMES_SECRET: "5e".repeat(32),
    ...extra,
  });

/** Runs `cmd` to its end; its output is kept for the error when it fails. */
export const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> =>
  new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.once("error", reject);
    p.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")}: ${out}`)),
    );
  });

/** A production build of the wallet whose only server setting is `services` (`VITE_SERVICES`), in `outDir`. */
export const buildFor = (services: string, outDir: string): Promise<void> =>
  run(`${BIN}/vite`, ["build", "--logLevel", "warn", "--outDir", outDir], {
    ...process.env,
    VITE_NETWORK: "regtest",
    VITE_SERVICES: services,
  });

/**
 * Starts `cmd` as a long-running process in a process group of its own (its children stop with it); its
 * output is kept for a failure's message.
 */
export const start = (cmd: string, args: string[], env: NodeJS.ProcessEnv) => {
  const p = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const out: string[] = [];
  p.stdout?.on("data", (d) => out.push(String(d)));
  p.stderr?.on("data", (d) => out.push(String(d)));
  return { process: p, output: () => out.join("").slice(-4000) };
};

/** `npm run services` with `env` as its whole environment. */
export const startServicesProcess = (env: NodeJS.ProcessEnv) =>
  start(`${BIN}/tsx`, ["services/main.ts"], env);

/** Stops a process started by `start` (SIGTERM to its group); resolves once it exited. */
export const stopProcess = (p: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!p || p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once("exit", () => resolve());
    if (p.pid) process.kill(-p.pid, "SIGTERM");
  });

/** A process's environment of its own: nothing of this run's but what it is told. */
export const cleanEnv = (vars: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...vars,
});
