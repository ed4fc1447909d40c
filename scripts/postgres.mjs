// Debian's PostgreSQL for the storage server's conformance suite, as ensure.mjs installs Chromium: installs it
// if missing, starts its cluster and makes a role that may create the suite's databases. Answers the
// connection string, or null (with the reason printed) where the machine cannot run it; the suite then runs
// on the embedded database only.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const run = (cmd) =>
  execSync(cmd, { stdio: ["ignore", "pipe", "pipe"] })
    .toString()
    .trim();
const ROLE = "vss_conformance";
const URL = `postgresql://${ROLE}:${ROLE}@127.0.0.1:5432/postgres`;

export function ensurePostgres() {
  if (process.env.STORAGE_POSTGRES_URL) return process.env.STORAGE_POSTGRES_URL;
  try {
    const root = process.getuid?.() === 0;
    const sudo = root ? "" : "sudo -n ";
    if (!existsSync("/usr/bin/pg_lsclusters")) {
      console.log("Installing PostgreSQL from Debian packages for the storage server's conformance suite…");
      run(`${sudo}apt-get update -qq`);
      run(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql`);
    }
    const cluster = run("pg_lsclusters -h").split("\n")[0]?.split(/\s+/) ?? [];
    const [version, name, , status] = cluster;
    if (!version || !name) throw new Error("no PostgreSQL cluster");
    if (status !== "online") run(`${sudo}pg_ctlcluster ${version} ${name} start`);
    const psql = (sql) => run(`${sudo}su postgres -c ${JSON.stringify(`psql -tAc ${JSON.stringify(sql)}`)}`);
    if (psql(`SELECT 1 FROM pg_roles WHERE rolname='${ROLE}'`) !== "1")
      psql(`CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${ROLE}'`);
    return URL;
  } catch (e) {
    console.log(
      `PostgreSQL is not available here (${e instanceof Error ? e.message.split("\n")[0] : e}); the storage suite runs on PGlite only.`,
    );
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensurePostgres() ?? "");
