import { describe, expect, it } from "vitest";
import { fromProtocolLink, isHodlDestination, isSendableQuery, pathFor } from "./incoming";

describe("incoming strings for the screens", () => {
  it("a search is sendable from 6 trimmed characters", () => {
    expect(isSendableQuery("  abcde ")).toBe(false);
    expect(isSendableQuery(" abcdef ")).toBe(true);
  });
  it("protocol links read as their plain scheme and lead to send", () => {
    expect(fromProtocolLink("web+lightning:lnurl1abc")).toBe("lightning:lnurl1abc");
    const address = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    expect(pathFor(`web+bitcoin:${address}?amount=0.001`, "regtest")).toEqual({
      path: `/send?to=${encodeURIComponent(`bitcoin:${address}?amount=0.001`)}`,
    });
    expect(pathFor("nonsense", "regtest")).toMatchObject({ error: { key: "payment_request.invalid" } });
  });
  it("a login LNURL goes home with lnurlauth", () => {
    const r = pathFor("keyauth://127.0.0.1:3000/auth?tag=login&k1=00", "regtest");
    expect("path" in r && r.path.startsWith("/?lnurlauth=")).toBe(true);
  });
  it("warns for hodl-invoice hosts only", () => {
    expect(isHodlDestination("bob@zeuspay.com", null)).toBe(true);
    expect(isHodlDestination(null, "https://zeuspay.com/.well-known/lnurlp/bob")).toBe(true);
    expect(isHodlDestination("bob@example.com", null)).toBe(false);
  });
});
