/**
 * The operator's files (docs/deploy.md, deploy/Dockerfile, deploy/wallet-services.service) checked against the
 * code they run: the systemd unit's sections and keys (and `systemd-analyze verify` where the machine has it),
 * the Dockerfile's instructions, the files they copy and run, and the settings each names against the ones
 * services/env.ts reads.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { SETTINGS } from "./env";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** The variables services/env.ts reads (`env.NAME`). */
const settings = new Set([...read("services/env.ts").matchAll(/\benv\.([A-Z_]+)/g)].map((m) => m[1]!));

const UNIT_KEYS: Record<string, readonly string[]> = {
  Unit: ["Description", "Documentation", "After", "Wants", "Requires"],
  Service: [
    "Type",
    "User",
    "Group",
    "WorkingDirectory",
    "EnvironmentFile",
    "Environment",
    "StateDirectory",
    "TimeoutStopSec",
    "ExecStart",
    "Restart",
    "RestartSec",
    "NoNewPrivileges",
    "ProtectSystem",
    "ProtectHome",
    "PrivateTmp",
    "PrivateDevices",
    "ProtectKernelTunables",
    "ProtectControlGroups",
    "RestrictAddressFamilies",
    "LimitNOFILE",
  ],
  Install: ["WantedBy"],
};

const parseUnit = (text: string) => {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const section = /^\[(\w+)\]$/.exec(line)?.[1];
    if (section) {
      current = new Map();
      sections.set(section, current);
      continue;
    }
    const kv = /^(\w+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`line ${i + 1} is not key=value in a section: ${line}`);
    current.set(kv[1]!, kv[2]!);
  }
  return sections;
};

const DOCKER_INSTRUCTIONS = new Set([
  "FROM",
  "WORKDIR",
  "COPY",
  "RUN",
  "ENV",
  "EXPOSE",
  "USER",
  "CMD",
  "HEALTHCHECK",
  "ARG",
  "LABEL",
  "VOLUME",
]);

/** The Dockerfile's instructions, continuation lines joined. */
const parseDockerfile = (text: string): { op: string; args: string }[] =>
  text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const m = /^([A-Z]+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`Not an instruction: ${l}`);
      return { op: m[1]!, args: m[2]! };
    });

describe("the operator's files", () => {
  test("the systemd unit has known sections and keys and runs files that exist", () => {
    const unit = parseUnit(read("deploy/wallet-services.service"));
    expect([...unit.keys()]).toEqual(["Unit", "Service", "Install"]);
    for (const [section, keys] of unit)
      for (const key of keys.keys()) expect(UNIT_KEYS[section], `${section}.${key}`).toContain(key);
    const service = unit.get("Service")!;
    expect(unit.get("Unit")?.get("Description")).toBeTruthy();
    expect(unit.get("Install")?.get("WantedBy")).toBe("multi-user.target");
    expect(service.get("Restart")).toBe("on-failure");
    const [binary, ...args] = (service.get("ExecStart") ?? "").split(/\s+/);
    expect(binary).toMatch(/^\//);
    // Run from the repository's root (WorkingDirectory): each file it names is there.
    for (const arg of args.filter((a) => a.includes("/")))
      expect(existsSync(join(root, arg)), arg).toBe(true);
    expect(args).toContain("services/main.ts");
  });

  test.skipIf(!existsSync("/usr/bin/systemd-analyze"))("systemd itself accepts the unit", () => {
    const dir = mkdtempSync(join(tmpdir(), "unit-"));
    try {
      const copy = join(dir, "wallet-services.service");
      copyFileSync(join(root, "deploy/wallet-services.service"), copy);
      // Throws (with systemd's complaint) on an unknown key, a bad value or a missing binary.
      execFileSync("/usr/bin/systemd-analyze", ["verify", copy], { stdio: "pipe", timeout: 60_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the Dockerfile's instructions are known, and what it copies and runs exists", () => {
    const steps = parseDockerfile(read("deploy/Dockerfile"));
    expect(steps[0]?.op).toBe("FROM");
    expect(steps[0]?.args).toMatch(/^node:\d+/);
    for (const s of steps) expect(DOCKER_INSTRUCTIONS, s.op).toContain(s.op);
    for (const s of steps.filter((x) => x.op === "COPY")) {
      const sources = s.args.split(/\s+/).slice(0, -1);
      for (const src of sources) expect(existsSync(join(root, src)), src).toBe(true);
    }
    const cmd = JSON.parse(steps.find((s) => s.op === "CMD")?.args ?? "null") as string[];
    expect(cmd).toEqual(["node_modules/.bin/tsx", "services/main.ts"]);
    for (const file of cmd) expect(existsSync(join(root, file)), file).toBe(true);
    const env = steps
      .filter((s) => s.op === "ENV")
      .flatMap((s) => s.args.split(/\s+/).map((kv) => kv.split("=") as [string, string]));
    for (const [name] of env) expect(settings, name).toContain(name);
    const port = env.find(([name]) => name === "PORT")?.[1];
    expect(steps.find((s) => s.op === "EXPOSE")?.args).toBe(port);
    expect(steps.find((s) => s.op === "HEALTHCHECK")?.args).toContain(`127.0.0.1:${port}/health`);
  });

  test("the settings the services know are the ones they read", () => {
    expect([...SETTINGS].sort()).toEqual([...settings].sort());
  });

  test("docs/deploy.md lists exactly the settings the services read", () => {
    const doc = read("docs/deploy.md");
    const table = new Set([...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!));
    expect([...table].sort()).toEqual([...settings].sort());
    expect(doc).toContain("deploy/wallet-services.service");
    expect(doc).toContain("deploy/Dockerfile");
    expect(doc).toContain("deploy/nginx.conf");
    expect(doc).toContain("deploy/Caddyfile");
    expect(read("package.json")).toContain('"services": "tsx services/main.ts"');
  });
});
