/**
 * NIP-44 v2, the encryption of private messages (seals and gift wraps), checked against the published test
 * vectors (paulmillr/nip44, committed as data in vectors/nip44.json with their source) through the same
 * nostr-tools module the wallet encrypts with.
 */
import { hex } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import * as nip44 from "nostr-tools/nip44";
import { getPublicKey } from "nostr-tools/pure";
import vectors from "./vectors/nip44.json";

const { valid, invalid } = vectors.v2;
const utf8 = new TextEncoder();

describe(`NIP-44 v2 vectors (${vectors.source})`, () => {
  it("conversation keys", () => {
    for (const v of valid.get_conversation_key)
      expect(hex.encode(nip44.getConversationKey(hex.decode(v.sec1), v.pub2))).toBe(v.conversation_key);
  });

  it("padded lengths", () => {
    for (const [len, padded] of valid.calc_padded_len)
      expect(nip44.v2.utils.calcPaddedLen(len as number)).toBe(padded);
  });

  it("encrypts and decrypts, both ways", () => {
    for (const v of valid.encrypt_decrypt) {
      const key = nip44.getConversationKey(hex.decode(v.sec1), getPublicKey(hex.decode(v.sec2)));
      expect(hex.encode(key)).toBe(v.conversation_key);
      expect(nip44.encrypt(v.plaintext, key, hex.decode(v.nonce))).toBe(v.payload);
      expect(nip44.decrypt(v.payload, key)).toBe(v.plaintext);
      const back = nip44.getConversationKey(hex.decode(v.sec2), getPublicKey(hex.decode(v.sec1)));
      expect(nip44.decrypt(v.payload, back)).toBe(v.plaintext);
    }
  });

  it("long messages", () => {
    for (const v of valid.encrypt_decrypt_long_msg) {
      const plaintext = v.pattern.repeat(v.repeat);
      expect(hex.encode(sha256(utf8.encode(plaintext)))).toBe(v.plaintext_sha256);
      const payload = nip44.encrypt(plaintext, hex.decode(v.conversation_key), hex.decode(v.nonce));
      expect(hex.encode(sha256(utf8.encode(payload)))).toBe(v.payload_sha256);
      expect(nip44.decrypt(payload, hex.decode(v.conversation_key))).toBe(plaintext);
    }
  });

  it("refuses invalid keys and tampered or malformed payloads", () => {
    for (const v of invalid.get_conversation_key)
      expect(() => nip44.getConversationKey(hex.decode(v.sec1), v.pub2), v.note).toThrow();
    for (const v of invalid.decrypt)
      expect(() => nip44.decrypt(v.payload, hex.decode(v.conversation_key)), v.note).toThrow();
  });

  it("refuses an empty message", () => {
    // The vectors also list 65,536 bytes and more as too long; nostr-tools 2.25 follows the later revision of
    // NIP-44 that gives such messages a longer length prefix. The wallet sends at most 10,000 characters.
    expect(invalid.encrypt_msg_lengths).toContain(0);
    expect(() => nip44.encrypt("", new Uint8Array(32).fill(1))).toThrow();
  });
});
