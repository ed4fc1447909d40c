/**
 * Zap requests of the three kinds, checked with nostr-tools (an outside implementation): the NIP-57 request
 * validates, the private kind's `anon` value opens with NIP-04 for the recipient only, and reading a request
 * from anywhere (its `anon` tag is anyone's text) never throws.
 */
import fc from "fast-check";
import { validateZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, generateSecretKey, getPublicKey, type VerifiedEvent } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { zapPrivacyOf } from "../../projections/chat";
import { openPrivateZap, privateZapKey, zapRequestJson } from "./zap-request";
import { someone } from "../../../harness/nostr/people";

const sender = generateSecretKey();
const { secret: recipientSecret, pubkey: recipient } = someone();
const input = {
  secret: sender,
  recipient,
  amountMsat: 21_000n,
  comment: "thanks",
  relays: ["ws://127.0.0.1:1/nostr"],
  createdAt: 1_700_000_000,
};

describe("zap requests", () => {
  it("makes each kind valid for NIP-57, and its kind reads back from the request", () => {
    for (const privacy of ["Public", "Private", "Anonymous"] as const) {
      const json = zapRequestJson(privacy, input);
      expect(validateZapRequest(json)).toBeNull();
      expect(zapPrivacyOf(json)).toBe(privacy);
      const e = JSON.parse(json) as VerifiedEvent;
      expect(e.tags).toContainEqual(["amount", "21000"]);
      expect(e.pubkey === getPublicKey(sender)).toBe(privacy === "Public");
    }
    expect(zapPrivacyOf("not json")).toBe("Public");
  });

  it("signs a private zap with the key Damus and rust-nostr derive, the same for the same moment", () => {
    const a = JSON.parse(zapRequestJson("Private", input)) as VerifiedEvent;
    const b = JSON.parse(zapRequestJson("Private", input)) as VerifiedEvent;
    expect(a.pubkey).toBe(getPublicKey(privateZapKey(sender, recipient, input.createdAt)));
    expect(b.pubkey).toBe(a.pubkey);
    expect(openPrivateZap(a, recipientSecret)).toEqual({ sender: getPublicKey(sender), comment: "thanks" });
    // A public or anonymous request has nothing to open.
    expect(openPrivateZap(JSON.parse(zapRequestJson("Anonymous", input)), recipientSecret)).toBeNull();
  });

  it("reading any anon tag never throws, and opens nothing that is not a private zap", () => {
    const someone = generateSecretKey();
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (anon) => {
        const e = finalizeEvent(
          {
            kind: 9734,
            created_at: 1,
            content: "",
            tags: [
              ["p", recipient],
              ["anon", anon],
            ],
          },
          someone,
        );
        expect(openPrivateZap(e, recipientSecret)).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});
