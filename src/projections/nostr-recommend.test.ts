import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { recommendationTags, withdrawalTags } from "../events/nip87";
import type { NostrEventJson, WalletEvent } from "../events/types";
import { nostrProjection, ownRecommendation, pendingEvents } from "./nostr";

const sk = generateSecretKey();
const pubkey = getPublicKey(sk);
const MINT = "https://mint.example/cashu";
const tags = recommendationTags({ kind: "cashu", id: MINT, invite: MINT, network: "bitcoin" });
const signed = (kind: number, created_at: number, t: string[][], key = sk): NostrEventJson =>
  finalizeEvent({ kind, created_at, tags: t, content: "" }, key);

let seq = 0;
const ev = (type: WalletEvent["type"], payload: object): WalletEvent =>
  ({ id: `e${++seq}`, type, v: 1, at: 0, device: "aa", payload }) as WalletEvent;
const fold = (events: WalletEvent[]) => events.reduce(nostrProjection.apply, nostrProjection.initial());
const identity = ev("nostr.identity", { pubkey, imported: false });

describe("NIP-87 recommendations in the nostr fold", () => {
  it("names the custodian by kind, identifier, address and network", () => {
    expect(tags).toEqual([
      ["d", MINT],
      ["k", "38172"],
      ["u", MINT, "cashu"],
      ["n", "mainnet"],
    ]);
    expect(
      recommendationTags({ kind: "fedimint", id: "ab".repeat(32), invite: "fed11x", network: "signet" }),
    ).toEqual([
      ["d", "ab".repeat(32)],
      ["k", "38173"],
      ["u", "fed11x", "fedimint"],
      ["n", "signet"],
    ]);
  });

  it("keeps the newest recommendation of each custodian, sends only it, and a deletion of its address ends it", () => {
    const first = signed(38000, 100, tags);
    const second = signed(38000, 200, tags);
    let s = fold([identity, ev("nostr.queued", { event: second }), ev("nostr.queued", { event: first })]);
    expect(ownRecommendation(s, MINT)?.id).toBe(second.id);
    expect(pendingEvents(s).map((e) => e.id)).toEqual([second.id]);

    // Someone else's deletion of this address changes nothing; the owner's own removes it.
    const stranger = signed(5, 300, withdrawalTags(pubkey, MINT, second.id), generateSecretKey());
    s = nostrProjection.apply(s, ev("nostr.fetched", { event: stranger }));
    expect(ownRecommendation(s, MINT)?.id).toBe(second.id);
    const withdrawal = signed(5, 300, withdrawalTags(pubkey, MINT, second.id));
    s = nostrProjection.apply(s, ev("nostr.queued", { event: withdrawal }));
    expect(ownRecommendation(s, MINT)).toBeNull();
    expect(pendingEvents(s).map((e) => e.id)).toEqual([withdrawal.id]);
    // A recommendation older than the deletion does not come back; a newer one does.
    s = nostrProjection.apply(s, ev("nostr.fetched", { event: first }));
    expect(ownRecommendation(s, MINT)).toBeNull();
    const again = signed(38000, 301, tags);
    s = nostrProjection.apply(s, ev("nostr.queued", { event: again }));
    expect(ownRecommendation(s, MINT)?.id).toBe(again.id);
  });
});
