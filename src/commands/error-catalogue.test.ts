/**
 * Every error the worker sends carries a catalogue key, so the owner reads it in their language: a tagged
 * error made in a handler without `key` fails this check, as does a key en.json does not have.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELD_REFUSAL_KEYS } from "./nwc-budget";

const DIR = join(__dirname);
const TAGS =
  "InvalidInput|WrongNetwork|InsufficientFunds|ImportRejected|PasswordRequired|WrongPassword|WalletState|ServerUnavailable|PaymentFailed|FeeNeedsConfirmation|RepeatNeedsConfirmation|Unexpected";
const CONSTRUCTION = new RegExp(`new (${TAGS})\\(\\s*\\{`, "g");

const sources = readdirSync(DIR)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.includes(".testing."))
  .map((f) => ({ file: f, text: readFileSync(join(DIR, f), "utf8") }));

/** The body of each tagged error made in `text` (what is between its braces), with its line. */
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
    return { body: text.slice(start, i - 1), line: text.slice(0, m.index).split("\n").length };
  });

describe("the errors the worker sends", () => {
  it("each carry a catalogue key", () => {
    const owing: string[] = [];
    for (const { file, text } of sources)
      for (const c of constructions(text))
        if (!/\bkey\b\s*(?::|,|$)|\.\.\./.test(c.body))
          owing.push(`${file}:${c.line} ${c.body.replace(/\s+/g, " ").trim().slice(0, 80)}`);
    expect(owing).toEqual([]);
  });

  it("refusing a held wallet-connect payment names keys the English catalogue has, with the same words", () => {
    const en = JSON.parse(readFileSync(join(DIR, "../../locales/en.json"), "utf8")) as Record<string, string>;
    for (const [text, key] of Object.entries(HELD_REFUSAL_KEYS)) expect(en[key], key).toBe(text);
  });

  it("name keys the English catalogue has", () => {
    const en = JSON.parse(readFileSync(join(DIR, "../../locales/en.json"), "utf8")) as Record<string, string>;
    const keys = new Set<string>();
    for (const { text } of sources)
      for (const c of constructions(text))
        for (const m of c.body.matchAll(/\bkey: "([^"]+)"/g)) keys.add(m[1]!);
    expect(keys.size).toBeGreaterThan(0);
    expect([...keys].filter((k) => !(k in en))).toEqual([]);
  });
});
