/**
 * The commands layer stays in files a reader can hold: no logic file in src/commands over 400 lines. The
 * command union (`command.ts`, a list of types) is the one exception.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

const MAX_LINES = 400;
const DIR = join(import.meta.dirname, ".");

const EXCEPTIONS: ReadonlySet<string> = new Set(["command.ts"]);

const lines = (file: string): number => readFileSync(join(DIR, file), "utf8").split("\n").length - 1;

describe("src/commands file sizes", () => {
  test(`no logic file is over ${MAX_LINES} lines`, () => {
    const files = readdirSync(DIR).filter(
      (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !EXCEPTIONS.has(f),
    );
    expect(files.length).toBeGreaterThan(10);
    const over = files.map((f) => ({ file: f, lines: lines(f) })).filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
