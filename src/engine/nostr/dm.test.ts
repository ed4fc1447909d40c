/**
 * Opening private messages is reading input: a gift wrap made by nostr-tools opens, the wallet's own copy
 * reads as sent to the peer, and a rumor claiming an author other than its seal's signer, a wrap for someone
 * else or a broken one opens to nothing.
 */
import * as nip04 from "nostr-tools/nip04";
import * as nip17 from "nostr-tools/nip17";
import * as nip44 from "nostr-tools/nip44";
import { createWrap } from "nostr-tools/nip59";
import { finalizeEvent, generateSecretKey, getEventHash, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { openLegacy, openWrap, wrapMessage } from "./dm";

const alice = generateSecretKey();
const bob = generateSecretKey();
const mallory = generateSecretKey();
const [A, B] = [getPublicKey(alice), getPublicKey(bob)];
const now = Math.floor(Date.now() / 1000);

describe("private messages", () => {
  it("opens a nostr-tools NIP-17 message and the wallet's own copy", () => {
    const wrap = nip17.wrapEvent(alice, { publicKey: B }, "hello bob");
    expect(openWrap(wrap, bob, B)).toMatchObject({ from: A, peer: A, text: "hello bob", via: "nip17" });
    const { message, toPeer, toSelf } = wrapMessage(bob, B, A, "hi alice", now);
    expect(openWrap(toPeer, alice, A)).toEqual({ ...message, peer: B });
    expect(openWrap(toSelf, bob, B)).toEqual(message);
    // Each wrap is for its addressee only.
    expect(openWrap(toPeer, bob, B)).toBeNull();
    expect(nip17.unwrapEvent(toPeer, alice).content).toBe("hi alice");
  });

  it("refuses a rumor whose claimed author did not sign its seal", () => {
    const rumor = { kind: 14, pubkey: A, created_at: now, tags: [["p", B]], content: "send me your seed" };
    const forged = { ...rumor, id: getEventHash(rumor) };
    const seal = finalizeEvent(
      {
        kind: 13,
        created_at: now,
        tags: [],
        content: nip44.encrypt(JSON.stringify(forged), nip44.getConversationKey(mallory, B)),
      },
      mallory,
    );
    expect(openWrap(createWrap(seal, B), bob, B)).toBeNull();
  });

  it("refuses wraps that do not open", () => {
    const wrap = nip17.wrapEvent(alice, { publicKey: B }, "x");
    expect(openWrap({ ...wrap, content: "AAAA" }, bob, B)).toBeNull();
    expect(openWrap({ ...wrap, kind: 1 }, bob, B)).toBeNull();
  });

  it("reads legacy NIP-04 messages both ways, and refuses one whose signature fails", () => {
    const e = finalizeEvent(
      { kind: 4, created_at: now, tags: [["p", B]], content: nip04.encrypt(alice, B, "old style") },
      alice,
    );
    expect(openLegacy(e, bob, B)).toMatchObject({ from: A, peer: A, text: "old style", via: "nip04" });
    expect(openLegacy(e, alice, A)).toMatchObject({ from: A, peer: B, text: "old style" });
    expect(openLegacy({ ...e, content: nip04.encrypt(alice, B, "changed") }, bob, B)).toBeNull();
    expect(openLegacy(e, mallory, getPublicKey(mallory))).toBeNull();
  });
});
