import { describe, expect, it } from "vitest";
import { type NewEvent, newEvent, stamp } from "../events/make";
import { validateEvent } from "../events/validate";
import { deriveViews, foldEvents } from "./index";

const MINT = "http://127.0.0.1:3338/cashu";
const OTHER = "http://127.0.0.1:3338/cashu2";

const fold = (events: NewEvent[]) => {
  let id = 0;
  return foldEvents(stamp(events, { uuid: () => `e${++id}`, now: () => 1_000, device: "d" }));
};

const joined = (mint: string, name: string, expires_at: number | null = null) =>
  newEvent("ecash.joined", {
    mint,
    kind: "cashu",
    name,
    welcome: `Welcome to ${name}`,
    expires_at,
    invite: mint,
  });
const received = (op: string, mint: string, amount: bigint, fee = 0n) =>
  newEvent("ecash.received", {
    op,
    mint,
    amount: amount.toString(),
    fee: fee.toString(),
    via: "lightning",
    payment_hash: null,
  });
const sent = (op: string, mint: string, amount: bigint, fee: bigint) =>
  newEvent("ecash.sent", {
    op,
    mint,
    amount: amount.toString(),
    fee: fee.toString(),
    via: "token",
    payment_hash: null,
  });

describe("ecash projection", () => {
  it("holds each custodian's ecash apart, labelled with its name, and the total as the federation balance", () => {
    const views = deriveViews(
      fold([
        joined(MINT, "World mint", 2_000_000_000),
        joined(OTHER, "Second mint"),
        received("a", MINT, 10_000n),
        sent("b", MINT, 3_000n, 2n),
        received("c", OTHER, 500n),
      ]),
    );
    expect(views.federations.map((f) => [f.federation_name, f.balance])).toEqual([
      ["World mint", 6_998n],
      ["Second mint", 500n],
    ]);
    expect(views.balance.federation).toBe(7_498n);
    expect(views.federations[0]?.welcome_message).toBe("Welcome to World mint");
    expect(views.federations[0]?.federation_expiry_timestamp).toBe(2_000_000_000);
    expect(views.federations[1]?.popup_end_timestamp).toBeNull();
  });

  it("shows each move in the activity, labelled with its custodian", () => {
    const items = deriveViews(
      fold([joined(MINT, "World mint"), received("a", MINT, 100n), sent("b", MINT, 40n, 1n)]),
    ).activity.items;
    expect(items.map((i) => [i.kind, i.inbound, i.amount_sats, i.labels])).toEqual([
      ["Ecash", true, 100n, ["World mint"]],
      ["Ecash", false, 40n, ["World mint"]],
    ]);
  });

  it("counts an operation once however often it is recorded (a crash's replay)", () => {
    const s = fold([
      joined(MINT, "m"),
      received("a", MINT, 100n),
      received("a", MINT, 100n),
      sent("b", MINT, 10n, 1n),
      sent("b", MINT, 10n, 1n),
    ]);
    expect(deriveViews(s).balance.federation).toBe(89n);
  });

  it("a removed custodian leaves the list; joining again shows what it held", () => {
    const s = fold([
      joined(MINT, "m"),
      received("a", MINT, 5n),
      sent("b", MINT, 5n, 0n),
      newEvent("ecash.removed", { mint: MINT }),
    ]);
    expect(deriveViews(s).federations).toEqual([]);
    const again = fold([
      joined(MINT, "m"),
      received("a", MINT, 5n),
      newEvent("ecash.removed", { mint: MINT }),
      joined(MINT, "m2"),
    ]);
    expect(deriveViews(again).federations.map((f) => [f.federation_name, f.balance])).toEqual([["m2", 5n]]);
  });

  it("an event from outside with a malformed amount or an unknown way is refused", () => {
    const base = { id: "x", v: 1, at: 1, device: "d" };
    expect(
      typeof validateEvent({
        ...base,
        type: "ecash.received",
        payload: { op: "a", mint: MINT, amount: "-1", fee: "0", via: "lightning", payment_hash: null },
      }),
    ).toBe("string");
    expect(
      typeof validateEvent({
        ...base,
        type: "ecash.sent",
        payload: { op: "a", mint: MINT, amount: "1", fee: "0", via: "teleport", payment_hash: null },
      }),
    ).toBe("string");
    expect(
      typeof validateEvent({
        ...base,
        type: "ecash.joined",
        payload: {
          mint: MINT,
          kind: "cashu",
          name: "x".repeat(501),
          welcome: "",
          expires_at: null,
          invite: MINT,
        },
      }),
    ).toBe("string");
    expect(
      typeof validateEvent({
        ...base,
        type: "ecash.received",
        payload: { op: "a", mint: MINT, amount: "1", fee: "0", via: "token", payment_hash: null },
      }),
    ).toBe("object");
  });

  it("folding in one go or event by event gives the same views", () => {
    const events = [
      joined(MINT, "m"),
      received("a", MINT, 7n),
      sent("b", MINT, 3n, 1n),
      joined(OTHER, "o"),
      received("c", OTHER, 2n),
    ];
    const whole = deriveViews(fold(events));
    let id = 0;
    const stamped = stamp(events, { uuid: () => `e${++id}`, now: () => 1_000, device: "d" });
    let s = foldEvents([]);
    for (const e of stamped) s = foldEvents([e], s);
    expect(deriveViews(s).federations).toEqual(whole.federations);
    expect(deriveViews(s).balance).toEqual(whole.balance);
  });
});
