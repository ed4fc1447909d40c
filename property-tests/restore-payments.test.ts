/**
 * A restore on a second device lists each payment once (issue: receives listed twice after a restore). The
 * restored node reports again payments the first device already recorded (a claim, a payment sent), with
 * new event ids and the restore's time, and the first device's log comes back from the storage server
 * before, after or between those reports. Whatever the order, the history folds to the first device's own:
 * one row per payment (its hash), at the time it happened, with its labels.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type NewEvent, newEvent, stamp } from "../src/events/make";
import type { WalletEvent } from "../src/events/types";
import { deriveViews, foldEvents } from "../src/projections";

const hash = (n: number) => n.toString(16).padStart(64, "0");

type Payment =
  | { readonly kind: "invoice"; readonly sats: number; readonly label: string }
  | { readonly kind: "keysend"; readonly sats: number }
  | { readonly kind: "sent"; readonly sats: number; readonly label: string };

const payment: fc.Arbitrary<Payment> = fc.oneof(
  fc.record({
    kind: fc.constant("invoice" as const),
    sats: fc.integer({ min: 1, max: 1_000_000 }),
    label: fc.constantFrom("", "coffee", "rent"),
  }),
  fc.record({ kind: fc.constant("keysend" as const), sats: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({
    kind: fc.constant("sent" as const),
    sats: fc.integer({ min: 1, max: 1_000_000 }),
    label: fc.constantFrom("", "lunch"),
  }),
);

/** The first device's events for its payments, one second apart, and what its node reports again later. */
const histories = (payments: readonly Payment[]) => {
  const original: NewEvent[][] = [];
  const replayed: NewEvent[] = [];
  payments.forEach((p, i) => {
    const h = hash(i + 1);
    const msat = String(p.sats * 1000);
    if (p.kind === "invoice") {
      original.push([
        newEvent("ln.invoice_created", {
          payment_hash: h,
          bolt11: `lnbcrt${i}`,
          amount_msat: msat,
          description: p.label,
          labels: p.label ? [p.label] : [],
          expires_at: 9_999_999_999,
        }),
      ]);
      original.push([newEvent("ln.payment_received", { payment_hash: h, amount_msat: msat })]);
      replayed.push(newEvent("ln.payment_received", { payment_hash: h, amount_msat: msat }));
    } else if (p.kind === "keysend") {
      original.push([newEvent("ln.payment_received", { payment_hash: h, amount_msat: msat })]);
      replayed.push(newEvent("ln.payment_received", { payment_hash: h, amount_msat: msat }));
    } else {
      const sent = newEvent("ln.payment_sent", {
        payment_id: h,
        payment_hash: h,
        preimage: hash(1000 + i),
        fee_msat: "1000",
      });
      original.push([
        newEvent("ln.payment_started", {
          payment_id: h,
          payment_hash: h,
          destination: `02${"aa".repeat(32)}`,
          bolt11: `lnbcrt${i}`,
          amount_msat: msat,
          max_fee_msat: "10000",
          labels: p.label ? [p.label] : [],
        }),
      ]);
      original.push([sent]);
      replayed.push(sent);
    }
  });
  return { original, replayed };
};

/** Stamps one device's events: ids of its own, times one second apart from `start`. */
const onDevice = (events: readonly NewEvent[], device: string, start: number): WalletEvent[] => {
  let t = start;
  let id = 0;
  return stamp(events, { uuid: () => `${device}-${++id}`, now: () => (t += 1000), device });
};

describe("a restore on a second device", () => {
  it("lists each payment once, at its own time, with its labels, whatever order the logs merge in", () => {
    fc.assert(
      fc.property(
        fc.array(payment, { minLength: 1, maxLength: 8 }),
        fc.subarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (payments, replayedPicks, order) => {
          const { original, replayed } = histories(payments);
          const first = onDevice(original.flat(), "a", 1_000_000);
          // The restore is a day later; its node reports some of the payments again.
          const again = onDevice(
            replayed.filter((_, i) => replayedPicks.includes(i)),
            "b",
            1_000_000 + 86_400_000,
          );
          // The second device's log: its node's reports and the first device's log, interleaved as the
          // storage sync happened to bring it (each keeps its own order).
          const merged: WalletEvent[] = [];
          let i = 0;
          let j = 0;
          for (const fromFirst of order) {
            if (fromFirst && i < first.length) merged.push(first[i++]!);
            else if (!fromFirst && j < again.length) merged.push(again[j++]!);
          }
          merged.push(...first.slice(i), ...again.slice(j));
          const own = deriveViews(foldEvents(first)).activity;
          const restored = deriveViews(foldEvents(merged)).activity;
          const ids = restored.items.map((r) => r.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(restored.total).toBe(payments.length);
          expect(restored.items).toEqual(own.items);
        },
      ),
      { numRuns: 300 },
    );
  });
});
