/**
 * The chat's pure pieces: invoice detection in any message text never throws (and finds the invoices that
 * are there), and the timeline merge of payments and messages is ordered, complete and stable.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invoicesIn } from "../src/commands/social/chat";
import type { Network } from "../src/events/types";
import { mergeTimeline, oldestFirst } from "../src/projections/timeline";
import bolt11 from "../src/engine/parse/vectors/bolt11.json";

const network = fc.constantFrom<Network>("bitcoin", "testnet", "signet", "regtest");
const invoices = bolt11.valid
  .filter((v) => v.network === "bitcoin" && !v.title.startsWith("Same, but including fields"))
  .map((v) => v.invoice);

describe("invoices in messages", () => {
  it("never throws, whatever the text, and finds only invoices in long words", () => {
    const word = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(...invoices),
      fc.constantFrom(...invoices).map((i) => `lightning:${i}`),
      fc.constantFrom(...invoices).map((i) => i.slice(0, 20)),
      fc.constantFrom("bitcoin:?lightning=", "lnbc", "lnurl1", "nostr:npub1", "x".repeat(200)),
    );
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.constantFrom(" ", "\n", "  ", "\t"),
        network,
        (words, sep, net) => {
          const found = invoicesIn(words.join(sep), net);
          for (const f of found) expect(f.original.length).toBeGreaterThan(15);
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds each mainnet invoice written among other words", () => {
    fc.assert(
      fc.property(fc.constantFrom(...invoices), fc.string({ maxLength: 15 }), (invoice, other) => {
        const found = invoicesIn(`pay ${other.replace(/\s/g, "")} ${invoice} thanks`, "bitcoin");
        expect(found.map((f) => f.invoice)).toContain(invoice.toLowerCase());
      }),
      { numRuns: 50 },
    );
  });
});

interface Item {
  readonly at: number;
  readonly tag: string;
}

const items = (prefix: string) =>
  fc
    .array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 })
    .map((ats) => oldestFirst(ats.map((at, i) => ({ at, tag: `${prefix}${i}` }))));

describe("the chat timeline", () => {
  it("is ordered by time, holds every entry once, and keeps each list's order at the same second", () => {
    fc.assert(
      fc.property(items("a"), items("m"), (activity: Item[], messages: Item[]) => {
        const merged = mergeTimeline(activity, messages);
        expect(merged).toHaveLength(activity.length + messages.length);
        for (let i = 1; i < merged.length; i++) {
          const prev = merged[i - 1];
          const cur = merged[i];
          if (!prev || !cur) continue;
          expect(prev.at).toBeLessThanOrEqual(cur.at);
          // At the same second, a payment comes before a message.
          if (prev.at === cur.at) expect(prev.type === "message" && cur.type === "activity").toBe(false);
        }
        // Stable: each list's entries appear in their own order.
        expect(merged.filter((e) => e.type === "activity").map((e) => e.item)).toEqual(activity);
        expect(merged.filter((e) => e.type === "message").map((e) => e.item)).toEqual(messages);
      }),
      { numRuns: 300 },
    );
  });

  it("sorts a list oldest first without reordering entries of the same second", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 30 }), (ats) => {
        const sorted = oldestFirst(ats.map((at, i) => ({ at, i })));
        for (let k = 1; k < sorted.length; k++) {
          const a = sorted[k - 1];
          const b = sorted[k];
          if (a && b) expect(a.at < b.at || (a.at === b.at && a.i < b.i)).toBe(true);
        }
      }),
    );
  });
});
