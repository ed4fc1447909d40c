/**
 * The friends tab, recipient side: private zaps (NIP-57) made by an outside client (nostr-tools, as Damus and
 * Amethyst make them) are opened only when addressed to the owner's key, and then show who really paid.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base64, bech32, utf8 } from "@scure/base";
import * as nip04 from "nostr-tools/nip04";
import { makeZapReceipt, makeZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { signInvoice } from "../../../harness/bolt11-sign";
import { zapsIn } from "../../engine/nostr/zaps";
import { ownerOpener } from "./zaps";
import { someone } from "../../../harness/nostr/people";

const serviceKey = generateSecretKey();
const { secret: ownerSecret, pubkey: owner } = someone();
const { secret: senderSecret, pubkey: sender } = someone();

/** A private zap as its sender's client makes it, and the receipt the recipient's LNURL service publishes. */
const privateZap = (to: string, comment: string, at: number) => {
  const inner = finalizeEvent(
    { kind: 9733, created_at: at, tags: [["p", to]], content: comment },
    senderSecret,
  );
  const signing = generateSecretKey();
  const [ct = "", iv = ""] = nip04.encrypt(signing, to, JSON.stringify(inner)).split("?iv=");
  const anon = `${bech32.encode("pzap", bech32.toWords(base64.decode(ct)), false)}_${bech32.encode("iv", bech32.toWords(base64.decode(iv)), false)}`;
  const template = makeZapRequest({
    pubkey: to,
    amount: 21_000,
    relays: ["wss://relay.example"],
    comment: "",
  });
  const request = JSON.stringify(
    finalizeEvent({ ...template, created_at: at, tags: [...template.tags, ["anon", anon]] }, signing),
  );
  const bolt11 = signInvoice({ msat: 21_000n, descriptionHash: sha256(utf8.decode(request)) });
  return finalizeEvent(
    makeZapReceipt({ zapRequest: request, bolt11, paidAt: new Date(at * 1000) }),
    serviceKey,
  );
};

describe("private zaps in the friends tab", () => {
  const someone = getPublicKey(generateSecretKey());
  const answer = [privateZap(owner, "for the coffee", 200), privateZap(someone, "not for you", 100)];
  // Both are paid through a pay server that signs receipts with the service's key (NIP-57 appendix F).
  const signers = new Map([
    [owner, getPublicKey(serviceKey)],
    [someone, getPublicKey(serviceKey)],
  ]);

  it("a private zap to the owner shows its real sender and comment; anyone else's stays without sender", () => {
    const rows = zapsIn(answer, signers, ownerOpener({ secret: ownerSecret, pubkey: owner })).zaps.map(
      (z) => ({
        kind: z.kind,
        from: z.from_hexpub,
        to: z.to_hexpub,
        note: z.note,
        sats: z.amount_sats,
      }),
    );
    expect(rows).toEqual([
      { kind: "private", from: sender, to: owner, note: "for the coffee", sats: 21n },
      { kind: "private", from: null, to: someone, note: "", sats: 21n },
    ]);
  });

  it("another key cannot open the owner's private zap, and without a key none is opened", () => {
    const stranger = generateSecretKey();
    const pretend = zapsIn(answer, signers, ownerOpener({ secret: stranger, pubkey: owner })).zaps;
    expect(pretend.map((z) => z.from_hexpub)).toEqual([null, null]);
    expect(zapsIn(answer, signers).zaps.map((z) => [z.kind, z.from_hexpub])).toEqual([
      ["private", null],
      ["private", null],
    ]);
  });
});
