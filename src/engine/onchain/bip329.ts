/**
 * Wallet labels as BIP329 JSON Lines: one `{type, ref, label}` record per line. The on-chain wallet
 * writes and reads the two types it keeps labels for: `tx` (a txid) and `addr` (an address). Labels are
 * lists here and one string in BIP329, joined with ", " on export and split back on import.
 */
import type { OnchainState } from "../../projections/onchain";

export type Bip329Type = "tx" | "addr" | "pubkey" | "input" | "output" | "xpub";

export interface Bip329Record {
  readonly type: Bip329Type;
  readonly ref: string;
  readonly label?: string;
  readonly origin?: string;
  readonly spendable?: boolean;
}

const TYPES = new Set<string>(["tx", "addr", "pubkey", "input", "output", "xpub"]);
const SEPARATOR = ", ";

/** The wallet's transaction and address labels as BIP329 lines (unlabelled items are left out). */
export const exportBip329 = (state: OnchainState, origin?: string): string => {
  const lines: string[] = [];
  for (const t of state.txs.values()) {
    if (t.labels.length === 0) continue;
    lines.push(
      JSON.stringify({
        type: "tx",
        ref: t.txid,
        label: t.labels.join(SEPARATOR),
        ...(origin ? { origin } : {}),
      }),
    );
  }
  for (const a of state.addresses.values()) {
    if (a.labels.length === 0) continue;
    lines.push(JSON.stringify({ type: "addr", ref: a.address, label: a.labels.join(SEPARATOR) }));
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
};

/**
 * Reads BIP329 lines. Blank lines are skipped; a line that is not a record of a known type with a string
 * `ref` is reported by its number and left out, so one bad line does not lose the rest.
 */
export const parseBip329 = (text: string): { records: Bip329Record[]; badLines: number[] } => {
  const records: Bip329Record[] = [];
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      badLines.push(i + 1);
      return;
    }
    const r = v as Record<string, unknown> | null;
    if (!r || typeof r !== "object" || !TYPES.has(String(r.type)) || typeof r.ref !== "string") {
      badLines.push(i + 1);
      return;
    }
    const spendable =
      r.spendable === true || r.spendable === "true"
        ? true
        : r.spendable === false || r.spendable === "false"
          ? false
          : undefined;
    records.push({
      type: r.type as Bip329Type,
      ref: r.ref,
      ...(typeof r.label === "string" ? { label: r.label } : {}),
      ...(typeof r.origin === "string" ? { origin: r.origin } : {}),
      ...(spendable !== undefined ? { spendable } : {}),
    });
  });
  return { records, badLines };
};

/** The labels to apply from BIP329 text: by txid and by address, as lists. */
export const importBip329 = (
  text: string,
): { tx: Map<string, string[]>; addr: Map<string, string[]>; badLines: number[] } => {
  const { records, badLines } = parseBip329(text);
  const tx = new Map<string, string[]>();
  const addr = new Map<string, string[]>();
  for (const r of records) {
    if (r.type !== "tx" && r.type !== "addr") continue;
    const labels = (r.label ?? "")
      .split(",")
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
    (r.type === "tx" ? tx : addr).set(r.ref, labels);
  }
  return { tx, addr, badLines };
};
