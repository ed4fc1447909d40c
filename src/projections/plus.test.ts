import { describe, expect, it } from "vitest";
import { type NewEvent, newEvent, stamp } from "../events/make";
import { validateEvent } from "../events/validate";
import { deriveViews, foldEvents } from "./index";
import { joinedCashu } from "../events/events.testing";

const MINT = "http://127.0.0.1:3338/cashu";

const fold = (events: NewEvent[], at = 1_000) => {
  let id = 0;
  return foldEvents(stamp(events, { uuid: () => `e${++id}`, now: () => at, device: "d" }));
};

const status = (timestamp: number | null) =>
  newEvent("plus.status", {
    host: "http://127.0.0.1:3002",
    plan_id: timestamp === null ? null : 1,
    timestamp,
    plans: [{ id: 1, amount: "5000" }],
  });
const joined = joinedCashu(MINT, "Local World Mint");
const received = (op: string, amount: bigint) =>
  newEvent("ecash.received", {
    op,
    mint: MINT,
    amount: amount.toString(),
    fee: "0",
    via: "token",
    payment_hash: null,
  });
const redeemed = (message: string, op: string | null, note: string) =>
  newEvent("lnaddress.redeemed", { message, at: 100, op, mint: MINT, note });

describe("the plus view", () => {
  it("is a member while the timestamp plus 3 days is later than the moment the view is made", () => {
    const s = fold([status(1_000_000)]);
    expect(deriveViews(s, 1_000_000_000).plus).toMatchObject({
      known: true,
      plan_id: 1,
      subscription_timestamp: 1_000_000,
      mutiny_plus: true,
    });
    expect(deriveViews(s, (1_000_000 + 3 * 86_400 - 1) * 1000).plus.mutiny_plus).toBe(true);
    expect(deriveViews(s, (1_000_000 + 3 * 86_400) * 1000).plus.mutiny_plus).toBe(false);
    expect(deriveViews(fold([])).plus).toEqual({
      known: false,
      plan_id: null,
      subscription_timestamp: null,
      mutiny_plus: false,
      plans: [],
    });
  });

  it("enables join only when lightning plus federation balance is above the plan's price", () => {
    const at = (sats: bigint) => deriveViews(fold([status(null), joined, received("a", sats)])).plus.plans;
    expect(at(5_000n)).toEqual([{ id: 1, amount_sats: 5_000n, can_join: false }]);
    expect(at(5_001n)).toEqual([{ id: 1, amount_sats: 5_000n, can_join: true }]);
  });

  it("refuses a malformed status from an import", () => {
    const bad = { id: "x", type: "plus.status", v: 1, at: 1, device: "d" };
    expect(
      validateEvent({ ...bad, payload: { ...status(1).payload, plans: [{ id: 1, amount: "-5" }] } }),
    ).toMatch(/plans/);
    expect(typeof validateEvent({ ...bad, payload: status(1).payload })).toBe("object");
  });
});

describe("tokens paid to the lightning address", () => {
  it("show with the payer's note, and a message recorded twice counts once", () => {
    const s = fold([
      joined,
      received("op1", 1_500n),
      redeemed("a".repeat(64), "op1", "for the pizza"),
      redeemed("a".repeat(64), "op2", "again"),
    ]);
    const items = deriveViews(s).activity.items.filter((i) => i.kind === "Ecash");
    expect(items.map((i) => [i.amount_sats, i.labels])).toEqual([
      [1_500n, ["for the pizza", "Local World Mint"]],
    ]);
    expect(s.lnaddress.redeemed.size).toBe(1);
    expect(s.lnaddress.newest).toBe(100);
  });
});
