/**
 * The lint rule that keeps every request of the engine and the handlers bounded (biome.jsonc and
 * lint/bounded-fetch.grit) cannot be written around: each spelling that reaches the platform's fetch,
 * XMLHttpRequest, EventSource or WebSocket without src/engine/http is refused, in files of the engine and
 * the handlers, while src/engine/http itself and tests may hand the globals on. The project's own
 * configuration is linted, in a copy of its layout.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");

const REFUSED: Record<string, string> = {
  bare: 'export const r = fetch("https://x.example");',
  "global-this": 'export const r = globalThis.fetch("https://x.example");',
  "global-this-index": 'export const r = globalThis["fetch"]("https://x.example");',
  "global-this-optional": 'export const r = globalThis?.fetch?.("https://x.example");',
  destructured: 'const { fetch: f } = globalThis;\nexport const r = f("https://x.example");',
  alias: 'const g = globalThis;\nexport const r = g.fetch("https://x.example");',
  cast: 'export const r = (globalThis as { fetch: (u: string) => unknown }).fetch("https://x.example");',
  reflect: 'export const r = Reflect.get(globalThis, "fetch");',
  window: 'export const r = window.fetch("https://x.example");',
  "window-destructured": "const { fetch: f } = window;\nexport const r = f;",
  self: 'export const r = self.fetch("https://x.example");',
  top: "export const r = top?.fetch;",
  parent: "export const r = parent?.fetch;",
  frames: "export const r = frames.fetch;",
  xhr: "export const r = new XMLHttpRequest();",
  "xhr-global": "export const r = new globalThis.XMLHttpRequest();",
  "event-source": 'export const r = new self.EventSource("https://x.example");',
  "web-socket-global": 'export const r = new globalThis.WebSocket("wss://x.example");',
};

/** What the engine may write: the bounded fetch it is handed, the platform's crypto and IndexedDB. */
const ALLOWED = [
  'import type { FetchFn } from "./http/bounded";',
  'export const get = (f: FetchFn) => f("https://x.example");',
  "export const nonce = globalThis.crypto.getRandomValues(new Uint8Array(12));",
  "export const subtle = globalThis.crypto?.subtle;",
  "export const idb = globalThis.indexedDB;",
  "export const local = (self: { fetch: () => void }) => self.fetch();",
].join("\n");

const dir = mkdtempSync(join(tmpdir(), "lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), `${text}\n`);
};

type Report = { diagnostics: { severity: string; category: string; location: { path: string } }[] };

/** The rule on the bare globals, and the plugin on the global object. */
const RULES = new Set(["lint/style/noRestrictedGlobals", "plugin"]);

describe("the lint rule on requests", () => {
  it("refuses every way around the bounded fetch in the engine and the handlers, and nothing else", async () => {
    cpSync(join(ROOT, "biome.jsonc"), join(dir, "biome.jsonc"));
    cpSync(join(ROOT, "lint"), join(dir, "lint"), { recursive: true });
    for (const [name, text] of Object.entries(REFUSED)) {
      write(`src/engine/probe/${name}.ts`, text);
      write(`src/commands/probe-${name}.ts`, text);
      // The bounded transport itself, and tests, hand the globals on.
      write(`src/engine/http/probe-${name}.ts`, text);
      write(`src/engine/probe/${name}.test.ts`, text);
    }
    write("src/engine/probe/allowed.ts", ALLOWED);
    write("src/commands/probe-allowed.ts", ALLOWED);
    // Biome exits non-zero on the errors it finds: its report is what is read.
    const run = await promisify(execFile)(
      BIOME,
      ["lint", "--reporter=json", "--max-diagnostics=none", "src"],
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((e: { stdout: string }) => e);
    const refused = new Set(
      (JSON.parse(run.stdout) as Report).diagnostics
        .filter((d) => d.severity === "error" && RULES.has(d.category))
        .map((d) => d.location.path),
    );
    for (const name of Object.keys(REFUSED)) {
      expect(refused.has(`src/engine/probe/${name}.ts`), name).toBe(true);
      expect(refused.has(`src/commands/probe-${name}.ts`), name).toBe(true);
      expect(refused.has(`src/engine/http/probe-${name}.ts`), name).toBe(false);
      expect(refused.has(`src/engine/probe/${name}.test.ts`), name).toBe(false);
    }
    expect(refused.has("src/engine/probe/allowed.ts")).toBe(false);
    expect(refused.has("src/commands/probe-allowed.ts")).toBe(false);
  });
});
