/**
 * Every error the worker sends carries a catalogue key, so the owner reads it in their language, and its
 * English message is that key's catalogue text (its placeholders filled): what a log, a wallet-connect client
 * or a test reads says what the screen says. Errors are made in the command handlers, the engine and the
 * screens: all three are read. A tagged error made without `key` fails this check, as does a key en.json
 * does not have, or a message that is not the catalogue's words.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HELD_REFUSAL_KEYS } from "./nwc/budget";

const SRC = join(import.meta.dirname, "..");
const TAGS =
  "InvalidInput|WrongNetwork|InsufficientFunds|ImportRejected|PasswordRequired|WrongPassword|WalletState|ServerUnavailable|PaymentFailed|FeeNeedsConfirmation|RepeatNeedsConfirmation|Unexpected";
const CONSTRUCTION = new RegExp(`new (${TAGS})\\(\\s*\\{`, "g");
const en = JSON.parse(readFileSync(join(SRC, "../locales/en.json"), "utf8")) as Record<string, string>;

/** The logic files (tests and test support left out) below the folders where errors are made. */
const sources = ["commands", "engine", "screens", "ui"].flatMap((dir) =>
  readdirSync(join(SRC, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test|testing)\.tsx?$/.test(e.name))
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { file: relative(SRC, path), text: readFileSync(path, "utf8") };
    }),
);

/** Each tagged error made in `text`: its tag, the body between its braces, and its line. */
const constructions = (text: string) =>
  [...text.matchAll(CONSTRUCTION)].map((m) => {
    let i = (m.index ?? 0) + m[0].length;
    let depth = 1;
    const start = i;
    while (i < text.length && depth > 0) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}") depth--;
      i++;
    }
    return { tag: m[1]!, body: text.slice(start, i - 1), line: text.slice(0, m.index).split("\n").length };
  });

const made = sources.flatMap(({ file, text }) =>
  constructions(text).map((c) => ({ ...c, where: `${file}:${c.line}` })),
);

/** The message written in a body: a string's text, or a template's with each `${…}` as "…". */
const messageOf = (body: string): string | null => {
  const plain = body.match(/\bmessage:\s*"((?:[^"\\]|\\.)*)"/);
  if (plain) return JSON.parse(`"${plain[1]}"`) as string;
  const template = body.match(/\bmessage:\s*`([^`]*)`/);
  return template ? template[1]!.replace(/\$\{[^}]*\}/g, "…") : null;
};

/** The catalogue text as a pattern: each `{placeholder}` stands for any words. */
const catalogued = (text: string): RegExp =>
  new RegExp(
    `^${text
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".+?")}$`,
  );

describe("the errors the worker sends", () => {
  it("are read from the handlers, the engine and the screens", () => {
    for (const dir of ["commands/", "engine/"])
      expect(made.filter((m) => m.where.startsWith(dir)).length, dir).toBeGreaterThan(10);
  });

  it("each carry a catalogue key", () => {
    const owing = made
      .filter((c) => !/\bkey\b\s*(?::|,|$)|\.\.\./.test(c.body))
      .map((c) => `${c.where} ${c.body.replace(/\s+/g, " ").trim().slice(0, 80)}`);
    expect(owing).toEqual([]);
  });

  it("refusing a held wallet-connect payment names keys the English catalogue has, with the same words", () => {
    for (const [text, key] of Object.entries(HELD_REFUSAL_KEYS)) expect(en[key], key).toBe(text);
  });

  it("name keys the English catalogue has", () => {
    const keys = new Set<string>();
    for (const c of made) for (const m of c.body.matchAll(/\bkey: "([^"]+)"/g)) keys.add(m[1]!);
    expect(keys.size).toBeGreaterThan(0);
    expect([...keys].filter((k) => !(k in en))).toEqual([]);
  });

  it("say in English what the catalogue says for their key", () => {
    const differing: string[] = [];
    for (const c of made) {
      // An unexpected error's message says where it happened (for the log); its key is the owner's words.
      if (c.tag === "Unexpected") continue;
      const key = c.body.match(/\bkey: "([^"]+)"/)?.[1];
      const message = messageOf(c.body);
      const text = key ? en[key] : undefined;
      // Plural and select messages are not a single sentence to compare.
      if (!key || message === null || text === undefined || /\{\w+, (plural|select)/.test(text)) continue;
      if (!catalogued(text).test(message)) differing.push(`${c.where} ${key}: "${message}" is not "${text}"`);
    }
    expect(differing).toEqual([]);
  });
});
