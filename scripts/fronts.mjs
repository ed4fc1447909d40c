// Debian's nginx and Caddy, the web fronts deploy/ configures, for services/front.test.ts and the self-hosted
// end-to-end test (as postgres.mjs installs PostgreSQL): installed if missing, never started as services.
// Where the machine cannot install them, those tests say so and skip.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

export function ensureFronts() {
  const missing = [
    ["/usr/sbin/nginx", "nginx-light"],
    ["/usr/bin/caddy", "caddy"],
  ].filter(([binary]) => !existsSync(binary));
  if (missing.length === 0) return;
  try {
    const sudo = process.getuid?.() === 0 ? "" : "sudo -n ";
    console.log(
      `Installing ${missing.map(([, p]) => p).join(" and ")} from Debian packages for the deploy tests…`,
    );
    execSync(`${sudo}apt-get update -qq`, { stdio: "ignore" });
    execSync(
      `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.map(([, p]) => p).join(" ")}`,
      { stdio: "ignore" },
    );
  } catch (e) {
    console.log(
      `nginx or Caddy is not available here (${e instanceof Error ? e.message.split("\n")[0] : e}).`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureFronts();
