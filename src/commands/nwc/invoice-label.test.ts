import { describe, expect, it } from "vitest";
import { invoiceLabels } from "./answers";

describe("an invoice made over wallet-connect", () => {
  it("is labelled with the payer's comment, not the connection's name", () => {
    // A payment to the owner's lightning address while the tab is open: the service asks through Plus.
    expect(invoiceLabels("Plus", "Thanks for the coffee")).toEqual(["Thanks for the coffee"]);
    // LUD-06 metadata as the description: its text.
    const metadata = JSON.stringify([
      ["text/plain", "Zoe's tips"],
      ["text/identifier", "zoe@example.com"],
    ]);
    expect(invoiceLabels("Shop", metadata)).toEqual(["Zoe's tips"]);
  });

  it("names the connection only when the payer wrote nothing", () => {
    expect(invoiceLabels("Shop", "")).toEqual(["Shop"]);
    expect(invoiceLabels("Shop", "  ")).toEqual(["Shop"]);
    expect(invoiceLabels(null, "")).toEqual([]);
  });
});
