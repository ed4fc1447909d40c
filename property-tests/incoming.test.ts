import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PaymentRequestError, routeIncomingString } from "../src/engine/parse";
import { pathFor } from "../src/ui/incoming";

describe("incoming strings never crash the screens", () => {
  it("routeIncomingString throws only PaymentRequestError; pathFor never throws", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.constantFrom("bitcoin", "regtest", "signet"),
        (s, network) => {
          try {
            routeIncomingString(s, network);
          } catch (e) {
            expect(e).toBeInstanceOf(PaymentRequestError);
          }
          const r = pathFor(s, network);
          expect("path" in r ? r.path.startsWith("/") : r.error instanceof PaymentRequestError).toBe(true);
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });
});
