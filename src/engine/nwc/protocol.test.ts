import { NWAClient } from "@getalby/sdk/nwc";
import { describe, expect, it } from "vitest";
import {
  encryptionOf,
  expirationOf,
  infoEvent,
  METHODS,
  parseRequestContent,
  parseWalletAuth,
} from "./protocol";

describe("NIP-47 as data", () => {
  it("reads the authorization request an app's library (the Alby SDK) makes, with its fixed budget", () => {
    const app = new NWAClient({
      relayUrls: ["wss://relay.example.com/v1"],
      requestMethods: ["get_info", "pay_invoice"],
      name: "Kiosk & Café",
      maxAmount: 21_000,
      budgetRenewal: "yearly",
    });
    expect(parseWalletAuth(app.connectionUri)).toEqual({
      appPubkey: app.options.appPubkey,
      relays: ["wss://relay.example.com/v1"],
      name: "Kiosk & Café",
      methods: ["get_info", "pay_invoice"],
      budget: { sats: 21_000n, period: 3 },
    });
    // Without a budget the owner chooses one.
    const open = new NWAClient({ relayUrls: ["wss://r.example"], requestMethods: ["get_balance"] });
    expect(parseWalletAuth(open.connectionUri)?.budget).toBeNull();
  });

  it("reads the older form with a secret and required commands, and refuses what lacks a relay or a key", () => {
    const older =
      "nostr+walletauth://b889ff5b1513b641e2a139f661a661364979c5beee91842f8f0ef42ab558e9d4?relay=wss%3A%2F%2Frelay.damus.io&secret=b8a30fafa48d4795b6c0eec169a383de&required_commands=pay_invoice";
    expect(parseWalletAuth(older)).toMatchObject({ methods: ["pay_invoice"], budget: null });
    expect(parseWalletAuth(older.replace(/relay=[^&]+&/, ""))).toBeNull();
    expect(parseWalletAuth("nostr+walletauth://abc?relay=wss%3A%2F%2Fr.example")).toBeNull();
    expect(parseWalletAuth("")).toBeNull();
  });

  it("reads a request's tags: NIP-44 v2 when it says so, NIP-04 otherwise; a readable expiration only", () => {
    expect(encryptionOf([["encryption", "nip44_v2"]])).toBe("nip44_v2");
    expect(encryptionOf([["p", "x"]])).toBe("nip04");
    expect(expirationOf([["expiration", "1700000000"]])).toBe(1_700_000_000);
    expect(expirationOf([["expiration", "soon"]])).toBeNull();
    expect(expirationOf([])).toBeNull();
  });

  it("reads request contents and refuses what is not a request", () => {
    expect(parseRequestContent('{"method":"get_info","params":{}}')).toEqual({
      method: "get_info",
      params: {},
    });
    expect(parseRequestContent('{"method":"get_balance"}')).toEqual({ method: "get_balance" });
    expect(parseRequestContent('{"params":{}}')).toBeNull();
    expect(parseRequestContent("not json")).toBeNull();
    expect(parseRequestContent("[]")).toBeNull();
  });

  it("announces its methods, both encryptions and its notifications; an app's connection names the app", () => {
    const info = infoEvent("ab".repeat(32));
    expect(info.kind).toBe(13194);
    expect(info.content.split(" ")).toEqual([...METHODS]);
    expect(info.tags).toContainEqual(["encryption", "nip44_v2 nip04"]);
    expect(info.tags).toContainEqual(["notifications", "payment_received payment_sent"]);
    expect(info.tags).toContainEqual(["p", "ab".repeat(32)]);
    expect(infoEvent(null).tags.some((t) => t[0] === "p")).toBe(false);
  });
});
