/**
 * The operator's web front (deploy/nginx.conf or deploy/Caddyfile, as the repository has them) run on
 * loopback for a test: the app's files from `appDir`, the services from `servicesPort`, plain HTTP on `port`
 * (the TLS lines are the only ones taken out; what the files say of paths, caching and proxying is kept).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export type FrontKind = "nginx" | "caddy";

export const FRONT_BINARIES: Record<FrontKind, string> = {
  nginx: "/usr/sbin/nginx",
  caddy: "/usr/bin/caddy",
};

export const frontAvailable = (kind: FrontKind): boolean => existsSync(FRONT_BINARIES[kind]);

export interface FrontOptions {
  readonly port: number;
  readonly appDir: string;
  readonly servicesPort: number;
  /**
   * nginx only: several services processes behind an `upstream` block (round robin, nginx's default), as
   * docs/deploy.md runs two for a rolling upgrade; `servicesPort` is then unused.
   */
  readonly servicesPorts?: readonly number[];
}

/** deploy/nginx.conf as a whole nginx configuration on loopback, its temporary files in `dir`. */
export const nginxConfig = (o: FrontOptions, dir: string): string => {
  let site = readFileSync(join(root, "deploy/nginx.conf"), "utf8");
  site = site.slice(0, site.indexOf("# Plain HTTP only"));
  site = site
    .replace(/^\s*listen \[::\]:443.*$/m, "")
    .replace(/^\s*listen 443 ssl http2;$/m, `  listen 127.0.0.1:${o.port};`)
    .replace(/^\s*ssl_certificate.*$/gm, "")
    .replaceAll("/var/www/wallet", o.appDir)
    .replaceAll(
      "http://127.0.0.1:8080",
      o.servicesPorts ? "http://services" : `http://127.0.0.1:${o.servicesPort}`,
    );
  const upstream = o.servicesPorts
    ? `upstream services {\n${o.servicesPorts.map((p) => `  server 127.0.0.1:${p};`).join("\n")}\n}\n`
    : "";
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((t) => `  ${t}_temp_path ${join(dir, t)};`)
    .join("\n");
  // Started as root, nginx's workers would drop to an unprivileged user, who cannot read a checkout in a
  // private directory (a CI clone under a 0700 temporary folder): they stay the user who runs the tests.
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${user}daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events {}
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
${temp}
${upstream}${site}
}
`;
};

/** deploy/Caddyfile on loopback, without its admin endpoint. */
export const caddyConfig = (o: FrontOptions): string =>
  `{
\tadmin off
}
${readFileSync(join(root, "deploy/Caddyfile"), "utf8")
  .replace(/^wallet\.example\.org \{$/m, `http://127.0.0.1:${o.port} {`)
  .replaceAll("/var/www/wallet", o.appDir)
  .replaceAll("127.0.0.1:8080", `127.0.0.1:${o.servicesPort}`)}`;

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

export interface RunningFront {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** Starts the front; resolves once it listens. */
export const startFront = async (kind: FrontKind, o: FrontOptions): Promise<RunningFront> => {
  const dir = mkdtempSync(join(tmpdir(), `front-${kind}-`));
  let child: ChildProcess;
  if (kind === "nginx") {
    // Readable and writable by nginx's workers whichever user they run as.
    chmodSync(dir, 0o755);
    for (const t of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, t), 0o777);
    const file = join(dir, "nginx.conf");
    writeFileSync(file, nginxConfig(o, dir));
    child = spawn(FRONT_BINARIES.nginx, ["-c", file, "-p", dir, "-e", join(dir, "error.log")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
  } else {
    const file = join(dir, "Caddyfile");
    writeFileSync(file, caddyConfig(o));
    child = spawn(FRONT_BINARIES.caddy, ["run", "--config", file, "--adapter", "caddyfile"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
  }
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  for (let i = 0; !(await listening(o.port)); i++) {
    if (child.exitCode !== null || i > 600) {
      child.kill("SIGKILL");
      throw new Error(
        `${kind} did not start: ${out}${existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${o.port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
