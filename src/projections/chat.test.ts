import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import type { NostrEventJson, WalletEvent } from "../events/types";
import { chatProjection, deliveryOf } from "./chat";
import { nostrProjection } from "./nostr";

const me = getPublicKey(generateSecretKey());
const peer = getPublicKey(generateSecretKey());
// Gift wraps as NIP-59 makes them: kind 1059, signed by a throwaway key, a `p` tag naming who may open it.
const wrap = (to: string, at: number): NostrEventJson =>
  finalizeEvent({ kind: 1059, created_at: at, tags: [["p", to]], content: "sealed" }, generateSecretKey());

let seq = 0;
const ev = (type: WalletEvent["type"], payload: object): WalletEvent =>
  ({ id: `e${++seq}`, type, v: 1, at: 0, device: "aa", payload }) as WalletEvent;

/** The log of one sent message: both wraps queued, then the message itself, as SendMessage records them. */
const sent = (id: string, toPeer: NostrEventJson, toSelf: NostrEventJson): WalletEvent[] => [
  ev("nostr.queued", { event: toPeer, relays: ["wss://inbox.example"] }),
  ev("nostr.queued", { event: toSelf }),
  ev("chat.message", {
    id,
    from: me,
    peer,
    text: `message ${id}`,
    at: 100,
    via: "nip17",
    wraps: [toPeer.id, toSelf.id],
  }),
];

const deliveries = (log: WalletEvent[]) => {
  const chat = log.reduce(chatProjection.apply, chatProjection.initial());
  const nostr = log.reduce(nostrProjection.apply, nostrProjection.initial());
  return Object.fromEntries(
    (chat.conversations.get(peer) ?? []).map((m) => [m.id, deliveryOf(chat, nostr, m)]),
  );
};

const refused = (id: string) =>
  ev("nostr.failed", {
    id,
    refusals: [{ relay: "wss://inbox.example", reason: "blocked: not on the whitelist" }],
  });

describe("a sent message's delivery", () => {
  const a = [wrap(peer, 100), wrap(me, 100)] as const;
  const b = [wrap(peer, 101), wrap(me, 101)] as const;
  const c = [wrap(peer, 102), wrap(me, 102)] as const;

  it("is pending while its wraps wait in the outbox", () => {
    expect(deliveries([...sent("a", ...a)])).toEqual({ a: "pending" });
  });

  it("is sent once the relays took its wraps, and refused once every relay refused the wrap to the peer", () => {
    const log = [
      ...sent("a", ...a),
      ...sent("b", ...b),
      ...sent("c", ...c),
      ev("nostr.published", { id: a[0].id, relay: "wss://inbox.example" }),
      ev("nostr.published", { id: a[1].id, relay: "wss://own.example" }),
      // b: its wrap to the peer refused for good, even though the copy to the wallet itself went out.
      refused(b[0].id),
      ev("nostr.published", { id: b[1].id, relay: "wss://own.example" }),
      // c: only the copy to the wallet itself was refused; the peer got theirs.
      ev("nostr.published", { id: c[0].id, relay: "wss://inbox.example" }),
      refused(c[1].id),
    ];
    expect(deliveries(log)).toEqual({ a: "sent", b: "refused", c: "sent" });
  });

  it("is refused while the copy to the wallet itself still waits, and a received message counts as sent", () => {
    const log = [
      ...sent("b", ...b),
      refused(b[0].id),
      ev("chat.message", {
        id: "r",
        from: peer,
        peer,
        text: "hi",
        at: 99,
        via: "nip17",
        wraps: [wrap(me, 99).id],
      }),
    ];
    expect(deliveries(log)).toEqual({ r: "sent", b: "refused" });
  });
});
