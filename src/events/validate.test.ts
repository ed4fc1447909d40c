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
});
