import { describe, expect, it } from "vitest";
import { toEvents } from "../../property-tests/arbitraries";
import { validateEvent } from "./validate";

describe("validateEvent", () => {
  const [created] = toEvents([]);

  it("accepts a valid event as it is", () => {
    expect(validateEvent(JSON.parse(JSON.stringify(created)))).toEqual(created);
  });

  // Found by the state-file mutation property (seed -280986968): an event with its type removed.
  it("refuses an event with no type with a sentence, not a crash", () => {
    const { type: _type, ...rest } = created!;
    expect(validateEvent(rest)).toBe("unknown event type (none)");
  });

  it("refuses newer versions, bad amounts and missing fields", () => {
    expect(validateEvent({ ...created, v: 99 })).toMatch(/newer version/);
    const [, tx] = toEvents([{ k: "tx", received: 5n, sent: 0n, fee: 0n, outgoing: false, label: "" }]);
    expect(validateEvent({ ...tx, payload: { ...tx!.payload, received: "1.5" } })).toMatch(/field received/);
    expect(validateEvent({ ...created, payload: {} })).toMatch(/field walletId/);
    expect(validateEvent(null)).toBe("an event is not an object");
  });

  it("refuses negative amounts and amounts above the 21 million bitcoin that can exist", () => {
    const [, tx] = toEvents([{ k: "tx", received: 5n, sent: 0n, fee: 0n, outgoing: false, label: "" }]);
    const withReceived = (received: string) =>
      validateEvent({ ...tx, payload: { ...tx!.payload, received } });
    // A crafted file once listed "+9,223,372,036,854,775,807 sats".
    for (const bad of ["-1", "-99400383", "9223372036854775807", "2100000000000001"])
      expect(withReceived(bad)).toMatch(/field received/);
    expect(withReceived("2100000000000000")).toMatchObject({ payload: { received: "2100000000000000" } });
  });

  it("accepts a send's destination and amount, and refuses a malformed one", () => {
    const [, tx] = toEvents([{ k: "tx", received: 5n, sent: 0n, fee: 0n, outgoing: true, label: "" }]);
    const withPaidTo = (paidTo: unknown) => validateEvent({ ...tx, payload: { ...tx!.payload, paidTo } });
    const paidTo = { script: "0014751e76e8199196d454941c45d1b3a323f1433bd6", amount: "31337" };
    expect(withPaidTo(paidTo)).toMatchObject({ payload: { paidTo } });
    expect(withPaidTo({ ...paidTo, amount: "-1" })).toMatch(/field paidTo/);
    expect(withPaidTo({ ...paidTo, script: "not hex" })).toMatch(/field paidTo/);
    expect(withPaidTo("bcrt1q")).toMatch(/field paidTo/);
  });
});
