#!/usr/bin/env node
// Checks every message catalogue in locales/ against locales/en.json.
//
// For each locale file:
//   - it parses as a JSON object;
//   - it has exactly the keys of en.json (none missing, none extra);
//   - every value is a non-empty string;
//   - every message parses as ICU MessageFormat (balanced braces, plural and
//     select blocks have an `other` case) and uses exactly the same set of
//     argument names ({count}, {seconds}, ...) as the English message;
//   - (non-English files) no more than 10% of the values are identical to
//     English, not counting values made only of brand words and placeholders.
// Key order differing from en.json is reported as a warning.
//
// Usage: node scripts/check-locales.mjs [locale ...]   (default: all)
// Exits 1 if any problem is found. No dependencies.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "locales");
const SOURCE = "en";
const MAX_IDENTICAL_RATIO = 0.1;

// Words that may legitimately stay in English in any language.
const BRAND_WORDS = new Set([
  "bitcoin",
  "lightning",
  "nostr",
  "sat",
  "sats",
  "e-sats",
  "on-chain",
  "json",
  "qr",
  "id",
  "ok",
]);

const PLURAL_TYPES = new Set(["plural", "select", "selectordinal"]);

class IcuError extends Error {}

// A small ICU MessageFormat parser that collects argument names.
// Bodies of plural/select cases (`one {# sat}`) are messages, not arguments.
function icuArguments(message) {
  const names = new Set();
  let i = 0;

  const skipSpace = () => {
    while (i < message.length && /\s/.test(message[i])) i++;
  };
  const readName = () => {
    skipSpace();
    const m = /^[^\s{},#'|]+/.exec(message.slice(i));
    if (!m) throw new IcuError(`expected a name at offset ${i}`);
    i += m[0].length;
    skipSpace();
    return m[0];
  };

  // Parses text until an unmatched "}" (nested) or the end (top level).
  const parseMessage = (nested) => {
    while (i < message.length) {
      const c = message[i];
      if (c === "'") {
        // ICU quoting: '' is a literal quote; '{...}' quotes syntax characters.
        if (message[i + 1] === "'") {
          i += 2;
        } else if (/[{}#|]/.test(message[i + 1] ?? "")) {
          const end = message.indexOf("'", i + 1);
          i = end === -1 ? message.length : end + 1;
        } else {
          i++;
        }
      } else if (c === "{") {
        i++;
        parseArgument();
      } else if (c === "}") {
        if (!nested) throw new IcuError(`unmatched "}" at offset ${i}`);
        return;
      } else {
        i++;
      }
    }
    if (nested) throw new IcuError('unclosed "{"');
  };

  const parseArgument = () => {
    const name = readName();
    names.add(name);
    if (message[i] === "}") {
      i++;
      return;
    }
    if (message[i] !== ",") throw new IcuError(`expected "," or "}" after {${name}`);
    i++;
    const type = readName();
    if (message[i] === "}") {
      i++;
      return;
    }
    if (message[i] !== ",") throw new IcuError(`expected "," or "}" after {${name}, ${type}`);
    i++;
    if (!PLURAL_TYPES.has(type)) {
      // Simple style such as {n, number, integer}: skip to the closing brace.
      let depth = 1;
      while (i < message.length && depth > 0) {
        if (message[i] === "{") depth++;
        else if (message[i] === "}") depth--;
        i++;
      }
      if (depth > 0) throw new IcuError(`unclosed {${name}, ${type}, ...}`);
      return;
    }
    const cases = new Set();
    for (;;) {
      skipSpace();
      if (message[i] === "}") {
        i++;
        break;
      }
      if (i >= message.length) throw new IcuError(`unclosed {${name}, ${type}, ...}`);
      const selector = readName();
      if (selector.startsWith("offset:")) continue;
      if (message[i] !== "{") throw new IcuError(`expected "{" after case "${selector}" of {${name}}`);
      i++;
      cases.add(selector);
      parseMessage(true);
      i++; // the case's closing "}"
    }
    if (!cases.has("other")) throw new IcuError(`{${name}, ${type}} has no "other" case`);
  };

  parseMessage(false);
  return names;
}

// True when a value has no words of its own: only brand words, numbers,
// placeholders and ICU syntax (such values may stay the same as English).
function isBrandOnly(value) {
  return value
    .replace(/\b(=\d+|zero|one|two|few|many|other)\b\s*\{/g, " ") // plural/select case selectors
    .replace(/\{\s*[^\s{},]+\s*(,\s*\w+\s*,?)?/g, " ") // "{name" / "{name, plural,"
    .toLowerCase()
    .split(/[\s.,:;!?()"'…{}#]+/)
    .filter(Boolean)
    .every((w) => BRAND_WORDS.has(w) || /^\d+$/.test(w));
}

function loadJson(file) {
  const parsed = JSON.parse(readFileSync(join(LOCALES_DIR, file), "utf8"));
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("top level is not an object");
  }
  return parsed;
}

const listKeys = (keys, max = 15) =>
  keys.length > max ? `${keys.slice(0, max).join(", ")}, … and ${keys.length - max} more` : keys.join(", ");
const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const fmtSet = (s) =>
  s.size
    ? [...s]
        .sort()
        .map((x) => `{${x}}`)
        .join(" ")
    : "(none)";

let en;
try {
  en = loadJson(`${SOURCE}.json`);
} catch (err) {
  console.error(`✗ ${SOURCE}.json: cannot read: ${err.message}`);
  process.exit(1);
}
const enKeys = Object.keys(en);
const enArgs = new Map();
const sourceProblems = [];
for (const key of enKeys) {
  if (typeof en[key] !== "string" || en[key].trim() === "") {
    sourceProblems.push(`${key}: value is not a non-empty string`);
    continue;
  }
  try {
    enArgs.set(key, icuArguments(en[key]));
  } catch (err) {
    sourceProblems.push(`${key}: invalid ICU message: ${err.message}`);
  }
}

const requested = process.argv.slice(2);
const locales = readdirSync(LOCALES_DIR)
  .filter((f) => f.endsWith(".json") && f !== `${SOURCE}.json`)
  .map((f) => f.slice(0, -".json".length))
  .filter((l) => requested.length === 0 || requested.includes(l))
  .sort();

console.log(`Source: ${SOURCE}.json, ${enKeys.length} keys`);
if (sourceProblems.length) {
  console.log(`✗ ${SOURCE}.json: ${sourceProblems.length} problem(s)`);
  for (const p of sourceProblems) console.log(`    ${p}`);
}
for (const l of requested) {
  if (!locales.includes(l)) sourceProblems.push(`requested locale ${l} not found`);
}

let failedLocales = 0;
for (const locale of locales) {
  const file = `${locale}.json`;
  const problems = [];
  const warnings = [];
  let messages;
  try {
    messages = loadJson(file);
  } catch (err) {
    console.log(`✗ ${file}: cannot read: ${err.message}`);
    failedLocales++;
    continue;
  }
  const keys = Object.keys(messages);
  const keySet = new Set(keys);
  const missing = enKeys.filter((k) => !keySet.has(k));
  const extra = keys.filter((k) => !(k in en));
  for (const k of missing) problems.push(`missing key: ${k}`);
  for (const k of extra) problems.push(`extra key: ${k}`);

  const identical = [];
  for (const key of enKeys) {
    if (!keySet.has(key)) continue;
    const value = messages[key];
    if (typeof value !== "string") {
      problems.push(`${key}: value is ${value === null ? "null" : typeof value}, not a string`);
      continue;
    }
    if (value.trim() === "") {
      problems.push(`${key}: empty value`);
      continue;
    }
    let args;
    try {
      args = icuArguments(value);
    } catch (err) {
      problems.push(`${key}: invalid ICU message: ${err.message}`);
      continue;
    }
    const expected = enArgs.get(key);
    if (expected && !sameSet(args, expected)) {
      problems.push(`${key}: placeholders ${fmtSet(args)}, English has ${fmtSet(expected)}`);
    }
    if (value === en[key] && !isBrandOnly(value)) identical.push(key);
  }

  const common = enKeys.filter((k) => keySet.has(k));
  if (missing.length === 0 && extra.length === 0 && common.some((k, idx) => keys[idx] !== k)) {
    warnings.push("key order differs from en.json");
  }

  const ratio = enKeys.length ? identical.length / enKeys.length : 0;
  const pct = (ratio * 100).toFixed(1);
  if (ratio > MAX_IDENTICAL_RATIO) {
    problems.push(
      `${identical.length} values (${pct}%) identical to English, limit ${MAX_IDENTICAL_RATIO * 100}%: ${listKeys(identical)}`,
    );
  } else if (identical.length) {
    warnings.push(`identical to English (${identical.length}, ${pct}%): ${identical.join(", ")}`);
  }

  if (problems.length) {
    failedLocales++;
    console.log(`✗ ${file}: ${problems.length} problem(s)`);
    for (const p of problems) console.log(`    ${p}`);
  } else {
    console.log(`✓ ${file}: ${keys.length} keys, ${identical.length} identical to English (${pct}%)`);
  }
  for (const w of warnings) console.log(`    warning: ${w}`);
}

if (locales.length === 0) console.log("No locale files to check.");
if (failedLocales || sourceProblems.length) {
  console.log(`\nFAILED: ${failedLocales} of ${locales.length} locale file(s) have problems.`);
  process.exit(1);
}
console.log(`\nOK: ${locales.length} locale file(s) match ${SOURCE}.json.`);
