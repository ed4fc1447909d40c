import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every amount a screen shows goes through the one sats formatter and the one fiat formatter (format.ts,
 * useFormat), in the chosen language. This reads the screens' source, so a new screen inherits the rule:
 * no amount written with toString(), String(), a template string or toLocaleString.
 */

const ROOTS = ["src/screens", "src/ui"];
/** Names that hold an amount. */
const AMOUNT = /(sats|amount|fee|balance|size|inbound|reserve|price|total|max|min|capacity)/i;
/** A line may opt out where the digits are an input's own editable value, never text shown as an amount. */
const INPUT_VALUE = "amount-text: input value";

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

/** The places in `source` that turn an amount into text by hand, as "line: text". */
const handFormatted = (source: string): string[] => {
  const found: string[] = [];
  const lines = source.split("\n");
  lines.forEach((line, i) => {
    if (line.includes(INPUT_VALUE) || lines[i - 1]?.includes(INPUT_VALUE)) return;
    // Comments and quoted words are not code that shows an amount.
    const code = line.replace(/\/\/.*$/, "").replace(/"[^"]*"/g, '""');
    const hits = [
      // x.toString() / (a ?? 0n).toString() where x names an amount
      ...[...code.matchAll(/([\w.?]+|\([^()]*\))\.toString\(\)/g)].filter((m) => AMOUNT.test(m[1] ?? "")),
      // String(amountSats)
      ...[...code.matchAll(/\bString\(([^()]*)\)/g)].filter((m) => AMOUNT.test(m[1] ?? "")),
      // `${amountSats} sats`
      ...[...code.matchAll(/\$\{([^}]*)\}/g)].filter((m) => AMOUNT.test(m[1] ?? "")),
      ...[...code.matchAll(/\.toLocaleString\(|new Intl\.NumberFormat\(/g)],
    ];
    for (const h of hits) found.push(`${i + 1}: ${h[0]}`);
  });
  return found;
};

describe("amounts on screens", () => {
  it("finds hand-made amount text (the check itself)", () => {
    expect(handFormatted("<p>{t('x', { amount: channel.size.toString() })}</p>")).toHaveLength(1);
    expect(handFormatted("<p>{t('x', { amount: (totals?.balance ?? 0n).toString() })}</p>")).toHaveLength(1);
    expect(handFormatted(["const s = `$", "{amountSats} sats`;"].join(""))).toHaveLength(1);
    expect(handFormatted("<span>{String(feeSats)}</span>")).toHaveLength(1);
    expect(handFormatted("<span>{n.toLocaleString()}</span>")).toHaveLength(1);
    expect(handFormatted("<span>{fmt.sats(amountSats)}</span>")).toEqual([]);
    expect(handFormatted(`setAmount(max.toString()); // ${INPUT_VALUE}`)).toEqual([]);
  });

  it("no screen or shared component writes an amount by hand: they use the formatters", () => {
    const offenders = ROOTS.flatMap(files)
      .filter((f) => !f.endsWith("format.ts") && !f.endsWith("amount-entry.ts"))
      .flatMap((f) => handFormatted(readFileSync(f, "utf8")).map((h) => `${f}:${h}`));
    expect(offenders).toEqual([]);
  });
});
