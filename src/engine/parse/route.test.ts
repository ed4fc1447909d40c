import { describe, expect, it } from "vitest";
import { PaymentRequestError } from "./errors";
import { encodeLnurl } from "./lnurl";
import { routeIncomingString } from "./route";
import bolt11 from "./vectors/bolt11.json";

const INVOICE = bolt11.valid[1]?.invoice ?? "";
const FEDERATION =
  "fed11qgqrgvnhwden5te0v9k8q6rp9ekh2arfdeukuet595cr2ttpd3jhq6rzve6zuer9wchxvetyd938gcewvdhk6tcqqysptkuvknc7erjgf4em3zfh90kffqf9srujn6q53d6r056e4apze5cw27h75";
const NWA =
  "nostr+walletauth://b889ff5b1513b641e2a139f661a661364979c5beee91842f8f0ef42ab558e9d4?relay=wss%3A%2F%2Frelay.damus.io&secret=b8a30fafa48d4795b6c0eec169a383de";

describe("routeIncomingString (spec 1 §4, incoming string handling)", () => {
  it("forwards links to /settings/plus with their query", () => {
    expect(routeIncomingString("https://app.example/settings/plus?session=abc&ok=1", "bitcoin")).toEqual({
      kind: "navigate",
      path: "/settings/plus?session=abc&ok=1",
    });
    expect(routeIncomingString("/settings/plus", "bitcoin")).toEqual({
      kind: "navigate",
      path: "/settings/plus",
    });
  });

  it("takes a Cashu token to the federations screen, where it is redeemed at its mint", () => {
    // NUT-00 TokenV4 vector (cashubtc/nuts tests/00-tests.md, single keyset).
    const token =
      "cashuBpGF0gaJhaUgArSaMTR9YJmFwgaNhYQFhc3hAOWE2ZGJiODQ3YmQyMzJiYTc2ZGIwZGYxOTcyMTZiMjlkM2I4Y2MxNDU1M2NkMjc4MjdmYzFjYzk0MmZlZGI0ZWFjWCEDhhhUP_trhpXfStS6vN6So0qWvc2X3O4NfM-Y1HISZ5JhZGlUaGFuayB5b3VhbXVodHRwOi8vbG9jYWxob3N0OjMzMzhhdWNzYXQ=";
    expect(routeIncomingString(`cashu:${token}`, "bitcoin")).toEqual({
      kind: "navigate",
      path: `/settings/federations?cashu_token=${encodeURIComponent(token)}`,
    });
  });

  it("sends LNURL-auth home with lnurlauth", () => {
    const url = "https://service.example/login?tag=login&k1=ab";
    expect(routeIncomingString(encodeLnurl(url), "bitcoin")).toEqual({
      kind: "navigate",
      path: `/?lnurlauth=${encodeURIComponent(url)}`,
    });
  });

  it("sends a federation invite to /settings/federations", () => {
    expect(routeIncomingString(FEDERATION, "bitcoin")).toEqual({
      kind: "navigate",
      path: `/settings/federations?fedimint_invite=${FEDERATION}`,
    });
  });

  it("sends a wallet-connect authorization to /settings/connections/", () => {
    expect(routeIncomingString(NWA, "bitcoin")).toEqual({
      kind: "navigate",
      path: `/settings/connections/?nwa=${encodeURIComponent(NWA)}`,
    });
  });

  it("hands anything payable to the send flow", () => {
    const payable = [
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?pj=https://pj.example/x",
      INVOICE,
      "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad",
      encodeLnurl("https://service.example/lnurlp/alice"),
      "alice@example.com",
    ];
    for (const input of payable) {
      const destination = routeIncomingString(input, "bitcoin");
      expect(destination.kind).toBe("send");
      if (destination.kind === "send") expect(destination.request.original).toBe(input);
    }
  });

  it("refuses with the parse errors", () => {
    expect(() => routeIncomingString("nonsense", "bitcoin")).toThrow(PaymentRequestError);
    expect(() => routeIncomingString(INVOICE, "signet")).toThrow(
      "Destination is for bitcoin but you're on signet",
    );
    expect(() => routeIncomingString("https://app.example/settings/plusplus", "bitcoin")).toThrow(
      "Invalid payment request",
    );
  });
});
