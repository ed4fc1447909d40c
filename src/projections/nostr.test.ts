import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { npubEncode } from "nostr-tools/nip19";
import { describe, expect, it } from "vitest";
import type { NostrEventJson, WalletEvent } from "../events/types";
import { nostrProjection, pendingEvents, profileView } from "./nostr";

const sk = generateSecretKey();
const pubkey = getPublicKey(sk);
const profile = (created_at: number, content: object): NostrEventJson =>
  finalizeEvent({ kind: 0, created_at, tags: [], content: JSON.stringify(content) }, sk);

let seq = 0;
const ev = (type: WalletEvent["type"], payload: object): WalletEvent =>
  ({ id: `e${++seq}`, type, v: 1, at: 0, device: "aa", payload }) as WalletEvent;

const fold = (events: WalletEvent[]) => events.reduce(nostrProjection.apply, nostrProjection.initial());

describe("the nostr fold", () => {
  const older = profile(100, { name: "Old" });
  const newer = profile(200, { name: "New", lud16: "new@example.com", deleted: "true" });
  const log = [
    ev("nostr.identity", { pubkey, imported: false }),
    ev("nostr.queued", { event: older }),
    ev("nostr.queued", { event: newer }),
  ];

  it("shows the newest profile of the key in use, honours the deleted flag, and sends only the newest", () => {
    const s = fold(log);
    expect(profileView(s)).toEqual({
      npub: npubEncode(pubkey),
      imported: false,
      profile: {
        name: "New",
        display_name: null,
        picture: null,
        lud16: "new@example.com",
        lud06: null,
        nip05: null,
        deleted: true,
      },
      updated_at: 200,
      pending: 1,
      failed: { count: 0, reason: null },
    });
    expect(pendingEvents(s).map((e) => e.id)).toEqual([newer.id]);
  });

  it("gives the same state whatever order two devices' edits arrive in", () => {
    const reversed = fold([log[0] as WalletEvent, log[2] as WalletEvent, log[1] as WalletEvent]);
    expect(profileView(reversed)).toEqual(profileView(fold(log)));
    expect(pendingEvents(reversed)).toEqual(pendingEvents(fold(log)));
  });

  it("forgets an event once a relay accepted it", () => {
    const s = fold([...log, ev("nostr.published", { id: newer.id, relay: "ws://relay" })]);
    expect(pendingEvents(s)).toEqual([]);
    expect(profileView(s).profile?.name).toBe("New");
  });

  it("stops sending an event every relay refused for good, and shows it as failed", () => {
    const refused = ev("nostr.failed", {
      id: newer.id,
      refusals: [{ relay: "ws://relay", reason: "blocked: deleted by its author" }],
    });
    const s = fold([...log, refused]);
    expect(pendingEvents(s)).toEqual([]);
    expect(profileView(s)).toMatchObject({
      pending: 0,
      failed: { count: 1, reason: "blocked: deleted by its author" },
    });
    // A newer edit replaces it: that one is sent, and nothing shows as failed any more.
    const newest = profile(300, { name: "Newest" });
    const next = fold([...log, refused, ev("nostr.queued", { event: newest })]);
    expect(pendingEvents(next).map((e) => e.id)).toEqual([newest.id]);
    expect(profileView(next).failed).toEqual({ count: 0, reason: null });
  });
});
