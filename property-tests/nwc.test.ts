/**
 * Wallet-connect budgets and requests as properties: budget arithmetic over random payment sequences and
 * period boundaries, a request delivered many times is paid once, and replaying the log gives the same
 * budgets and requests.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { BudgetPeriod } from "../src/crdt/doc";
import { emptyDoc, makeChange } from "../src/crdt/doc";
import { initCrdtNode } from "../src/crdt/node";
import { NwcDesk } from "../src/commands/nwc/desk";
import { type NewEvent, stamp } from "../src/events/make";
import type { WalletEvent } from "../src/events/types";
import { validateEvent } from "../src/events/validate";
import { deriveViews, foldEvent, foldEvents, initialStates, type States } from "../src/projections";
import { crdtProjection } from "../src/projections/crdt";
import { budgetRemaining, PERIOD_MS, type Spend, spentInPeriod } from "../src/projections/nwc";
import type { Command } from "../src/commands/command";
import vectors from "../src/engine/parse/vectors/bolt11.json";
import { decodeBolt11 } from "../src/engine/parse";

/** BOLT 11's "1 cup coffee" example (250,000 sats, valid for 60 s from its timestamp), from the spec's vectors. */
const coffee = vectors.valid.find((v) => v.invoice.startsWith("lnbc2500u"))?.invoice ?? "";
const decoded = decodeBolt11(coffee);
const bolt11Vector = { invoice: coffee, paymentHash: decoded?.paymentHash ?? "" };
/** A moment the example invoice is still valid at. */
const DESK_NOW = (decoded?.timestamp ?? 0) * 1000 + 1000;

beforeAll(() => initCrdtNode());

const period = fc.constantFrom<BudgetPeriod>(0, 1, 2, 3);
const T0 = 1_800_000_000_000;

/** A payment: when (ms after T0), how much, and whether it failed afterwards (then it spent nothing). */
const payment = fc.record({
  at: fc.integer({ min: 0, max: 400 * 86_400_000 }),
  sats: fc.bigInt({ min: 1n, max: 2_000_000n }),
  failed: fc.boolean(),
});

const hex64 = (n: number) => n.toString(16).padStart(64, "0");

/** The events a sequence of payments of connection 1000 leaves in the log. */
const paymentEvents = (payments: readonly { at: number; sats: bigint; failed: boolean }[]): WalletEvent[] => {
  const events: WalletEvent[] = [];
  let n = 0;
  const ev = (type: WalletEvent["type"], at: number, payload: unknown): WalletEvent =>
    ({ id: `e${++n}`, type, v: 1, at, device: "d", payload }) as WalletEvent;
  const sorted = [...payments].sort((a, b) => a.at - b.at);
  sorted.forEach((p, i) => {
    const at = T0 + p.at;
    const id = hex64(i + 1);
    events.push(
      ev("nwc.request", at, {
        request_id: id,
        index: 1000,
        method: "pay_invoice",
        app: hex64(99),
        encryption: "nip44_v2",
        expires_at: null,
      }),
      ev("nwc.payment_accepted", at, {
        request_id: id,
        index: 1000,
        payment_hash: hex64(1000 + i),
        bolt11: "lnbcrt1",
        amount_msat: (p.sats * 1000n).toString(),
      }),
      ev("nwc.answered", at + 1, {
        request_id: id,
        response: JSON.stringify(
          p.failed
            ? { result_type: "pay_invoice", error: { code: "PAYMENT_FAILED", message: "no route" } }
            : { result_type: "pay_invoice", result: { preimage: hex64(7) } },
        ),
      }),
    );
  });
  return events;
};

describe("wallet-connect budgets", () => {
  it("spent is the sum of the payments that went out inside the window ending now; remaining never below 0", () => {
    fc.assert(
      fc.property(
        fc.array(payment, { maxLength: 30 }),
        period,
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        (payments, p, budget, nowOffset) => {
          const events = paymentEvents(payments);
          for (const e of events) expect(typeof validateEvent(e)).toBe("object");
          const s = foldEvents(events);
          const spends = s.nwc.spends.get(1000) ?? [];
          const now = T0 + nowOffset;
          const expected = payments
            .filter((x) => !x.failed && T0 + x.at > now - PERIOD_MS[p] && T0 + x.at <= now)
            .reduce((sum, x) => sum + x.sats, 0n);
          expect(spentInPeriod(spends, p, now)).toBe(expected);
          const left = budgetRemaining(budget, p, spends, now);
          expect(left).toBe(budget > expected ? budget - expected : 0n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a payment counts until exactly one period after it, not at the boundary", () => {
    fc.assert(
      fc.property(period, fc.bigInt({ min: 1n, max: 1_000_000n }), (p, sats) => {
        const spends: Spend[] = [{ requestId: "x", at: T0, sats }];
        expect(spentInPeriod(spends, p, T0)).toBe(sats);
        expect(spentInPeriod(spends, p, T0 + PERIOD_MS[p] - 1)).toBe(sats);
        expect(spentInPeriod(spends, p, T0 + PERIOD_MS[p])).toBe(0n);
        // A payment dated after `now` (another device's clock) is not spent yet.
        expect(spentInPeriod(spends, p, T0 - 1)).toBe(0n);
      }),
    );
  });

  it("replaying the log, whole or resumed at any point, gives the same budgets and requests", () => {
    fc.assert(
      fc.property(fc.array(payment, { maxLength: 25 }), fc.nat(), (payments, cut) => {
        const events = paymentEvents(payments);
        let live = initialStates();
        for (const e of events) live = foldEvent(live, e);
        const whole = foldEvents(events);
        const at = cut % (events.length + 1);
        const resumed = foldEvents(events.slice(at), foldEvents(events.slice(0, at)));
        expect(deriveViews(whole).nwc).toEqual(deriveViews(live).nwc);
        expect(deriveViews(resumed).nwc).toEqual(deriveViews(whole).nwc);
        expect(resumed.nwc.spends).toEqual(whole.nwc.spends);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * The desk on an in-memory log: its decisions are the wallet's, the payment command is the one thing it
 * stands in for (it counts how often a payment was asked for and records it as sent).
 */
const deskOn = (budget: bigint) => {
  let states: States = initialStates();
  let n = 0;
  const log: WalletEvent[] = [];
  const commitNow = (events: readonly NewEvent[]) => {
    for (const e of stamp(events, { uuid: () => `id${++n}`, now: () => DESK_NOW, device: "d" })) {
      log.push(e);
      states = foldEvent(states, e);
    }
  };
  const change = makeChange(emptyDoc(), "aa", (d) => {
    d.nwc["1000"] = {
      index: 1000,
      name: "Shop",
      label: null,
      tag: "General",
      require_approval: false,
      budget_sats: budget.toString(),
      budget_period: 0,
      budget_fixed: false,
      enabled: true,
      app_pubkey: null,
      created_at: T0,
    };
  });
  commitNow([{ type: "crdt.change", payload: { change: change ?? "" } }]);
  expect(crdtProjection.view(states.crdt).nwc["1000"]?.name).toBe("Shop");
  const paid: string[] = [];
  let queue = Promise.resolve();
  const desk = new NwcDesk({
    enqueue: <T>(f: () => Promise<T>) => {
      const run = queue.then(f);
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    commit: async (events) => commitNow(events),
    states: () => states,
    run: async (command: Command) => {
      if (command._tag !== "PayInvoice") throw new Error(`unexpected ${command._tag}`);
      paid.push(command.bolt11);
      const hash = bolt11Vector.paymentHash;
      // The payment goes out a moment later, as the node's events come in.
      await new Promise((r) => setTimeout(r, 0));
      commitNow([
        {
          type: "ln.payment_started",
          payload: {
            payment_id: hex64(paid.length),
            payment_hash: hash,
            destination: "02".padEnd(66, "1"),
            bolt11: command.bolt11,
            amount_msat: (command.amountSats * 1000n).toString(),
            max_fee_msat: "0",
            labels: command.labels ?? [],
          },
        },
        {
          type: "ln.payment_sent",
          payload: { payment_id: hex64(paid.length), payment_hash: hash, preimage: hex64(5), fee_msat: "0" },
        },
      ]);
      return {
        ok: true,
        value: { status: "succeeded", paymentHash: hash, amountSats: command.amountSats, feeSats: 0n },
      };
    },
    nwc: () => null,
    lightning: () => null,
    whenLightning: async () => undefined,
    whenChannelsBack: async () => undefined,
    now: () => DESK_NOW,
    network: "bitcoin",
  });
  return { desk, paid, log: () => log, states: () => states };
};

describe("wallet-connect requests", () => {
  it("a request delivered N times, however the deliveries interleave, is paid once and answered alike", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }),
        async (times, delays) => {
          const { desk, paid, states } = deskOn(10_000_000n);
          // One pay_invoice request, delivered again and again.
          const payOnce = {
            requestId: hex64(42),
            index: 1000,
            app: hex64(99),
            encryption: "nip44_v2",
            method: "pay_invoice",
            params: { invoice: bolt11Vector.invoice },
            createdAt: DESK_NOW / 1000,
            expiresAt: null,
          } as const;
          const deliver = (i: number) =>
            new Promise<readonly unknown[]>((resolve, reject) =>
              setTimeout(() => desk.request(payOnce).then(resolve, reject), delays[i] ?? 0),
            );
          const answers = await Promise.all(Array.from({ length: times }, (_, i) => deliver(i)));
          expect(paid).toHaveLength(1);
          // The first delivery waits for the payment; the others answer what was sent, or nothing while it is on its way.
          expect(answers.flat().length).toBeGreaterThanOrEqual(1);
          expect(states().nwc.spends.get(1000)).toHaveLength(1);
          // A later delivery (a reload) gets the same answer again.
          const again = await desk.request(payOnce);
          expect(paid).toHaveLength(1);
          expect(JSON.stringify(again)).toContain(hex64(5));
        },
      ),
      { numRuns: 30 },
    );
  });

  it("an expired request is refused and nothing is paid", async () => {
    const { desk, paid } = deskOn(10_000_000n);
    const replies = await desk.request({
      requestId: hex64(43),
      index: 1000,
      app: hex64(99),
      encryption: "nip04",
      method: "pay_invoice",
      params: { invoice: bolt11Vector.invoice },
      createdAt: DESK_NOW / 1000 - 120,
      expiresAt: DESK_NOW / 1000 - 60,
    });
    expect(paid).toHaveLength(0);
    expect(JSON.stringify(replies)).toContain("expired");
  });
});
