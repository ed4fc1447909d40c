/**
 * The worker's layers and the screens stay in files a reader can hold: no logic file in src/commands,
 * src/engine or src/screens over 400 lines. Each exception says why it is one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";

const MAX_LINES = 400;
const SRC = join(import.meta.dirname, "..");

/** Files allowed over the limit (paths below src/), each with its reason. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ["commands/command.ts", "the command union: a list of types, one per command, and nothing that decides"],
]);

/** Every logic file below `dir` (tests and test support left out), as paths below src/. */
const logicFiles = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test|testing)\.tsx?$/.test(e.name))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));

const lines = (file: string): number => readFileSync(join(SRC, file), "utf8").split("\n").length - 1;

describe.each(["commands", "engine", "screens"])("src/%s file sizes", (dir) => {
  test(`no logic file is over ${MAX_LINES} lines`, () => {
    const files = logicFiles(dir);
    expect(files.length).toBeGreaterThan(10);
    const over = files
      .filter((f) => !EXCEPTIONS.has(f))
      .map((f) => ({ file: f, lines: lines(f) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});

test("every exception still names a file over the limit", () => {
  for (const file of EXCEPTIONS.keys()) expect(lines(file)).toBeGreaterThan(MAX_LINES);
});
