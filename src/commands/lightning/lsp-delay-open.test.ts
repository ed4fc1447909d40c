import { describe, expect, it } from "vitest";
import { openDelayRefusal } from "./lsp-delay";

describe("a channel open a peer refused for the wallet's safety delay", () => {
  it("says how long the peer allows and what the wallet asks, in days, from LDK's reason", () => {
    // What LDK 0.1's channel_closed reason reads when the peer's limit is below the delay asked.
    const reason =
      "counterparty force-closed with message: They wanted our payments to be delayed by a needlessly long period. Upper limit: 1008. Actual: 2016";
    expect(openDelayRefusal(reason)).toMatchObject({
      _tag: "InvalidInput",
      key: "swap.error_open_delay_refused",
      values: { max: "1008", days: "7", delay: "2016", delay_days: "14" },
    });
    expect(openDelayRefusal(reason)?.message).toMatch(/Nothing was spent/);
  });

  it("leaves any other failure to the open's own words", () => {
    expect(openDelayRefusal("counterparty force-closed with message: no")).toBeNull();
    expect(openDelayRefusal("Upper limit: 10")).toBeNull();
  });
});
