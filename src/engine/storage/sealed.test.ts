import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { StorageBadAnswer } from "./errors";
import { storageKeys, storageKeysOfWords, storeIdOf } from "./keys";
import { opaqueName, openValue, revealName, sealValue, versionAfter } from "./sealed";
import { signedAuthorization, verifyAuthorization } from "./auth";

const WORDS = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const keys = storageKeysOfWords(WORDS);
const bytes = (s: string) => new TextEncoder().encode(s);

describe("the store's keys", () => {
  test("come from the words alone, the same on every device, apart per network", () => {
    const again = storageKeysOfWords(WORDS);
    expect(again.authPubkey).toEqual(keys.authPubkey);
    expect(again.data).toEqual(keys.data);
    expect(storeIdOf(keys, "regtest")).toBe(storeIdOf(again, "regtest"));
    expect(storeIdOf(keys, "regtest")).not.toBe(storeIdOf(keys, "bitcoin"));
    expect(storeIdOf(keys, "regtest")).toMatch(/^[0-9a-f]{40}$/);
    const other = storageKeysOfWords("zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong");
    expect(other.authPubkey).not.toEqual(keys.authPubkey);
    expect(
      new Set([keys.data, keys.nameMac, keys.nameEnc].map((k) => Buffer.from(k).toString("hex"))).size,
    ).toBe(3);
  });
});

describe("names", () => {
  test("are opaque, stable and read back only with the wallet's keys", () => {
    const name = "ln/monitor/0123abcd_1";
    const opaque = opaqueName(keys, name);
    expect(opaque).toBe(opaqueName(keys, name));
    expect(opaque).not.toContain("monitor");
    expect(opaque).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(opaqueName(keys, "ln/monitor/0123abcd_2")).not.toBe(opaque);
    expect(revealName(keys, opaque)).toBe(name);
    expect(revealName(storageKeys(randomBytes(32), randomBytes(32)), opaque)).toBeNull();
    expect(revealName(keys, "not-one-of-ours")).toBeNull();
  });
});

describe("values", () => {
  test("open with the version sealed in them, and not under another name or once changed", () => {
    const opaque = opaqueName(keys, "ln/manager");
    const sealed = sealValue(keys, opaque, bytes("channel state"), 4n);
    expect(openValue(keys, opaque, sealed)).toEqual({ version: 4n, value: bytes("channel state") });
    expect(Buffer.from(sealed).toString("latin1")).not.toContain("channel state");
    // A fresh nonce each time: the same value twice looks different.
    expect(sealValue(keys, opaque, bytes("channel state"), 4n)).not.toEqual(sealed);
    expect(() => openValue(keys, opaqueName(keys, "ln/other"), sealed)).toThrow(StorageBadAnswer);
    for (let i = 0; i < sealed.length; i++) {
      const changed = sealed.slice();
      changed[i] = (changed[i] ?? 0) ^ 1;
      expect(() => openValue(keys, opaque, changed)).toThrow(StorageBadAnswer);
    }
  });

  test("carry the version the server gives the write", () => {
    expect(versionAfter(0n)).toBe(1n);
    expect(versionAfter(6n)).toBe(7n);
    expect(versionAfter(-1n)).toBe(1n);
  });
});

describe("the signature header", () => {
  test("is vss-server's: pubkey, compact signature, seconds; the world's server takes it for five minutes", () => {
    const now = 1_790_000_000_000;
    const header = signedAuthorization(keys.authSecret, now);
    expect(header).toMatch(/^[0-9a-f]{66}[0-9a-f]{128}1790000000$/);
    expect(header.slice(0, 66)).toBe(Buffer.from(keys.authPubkey).toString("hex"));
    expect(verifyAuthorization(header, now)).toEqual({ owner: header.slice(0, 66) });
    expect(verifyAuthorization(header, now + 4 * 60_000)).toEqual({ owner: header.slice(0, 66) });
    expect(verifyAuthorization(header, now + 6 * 60_000)).toEqual({ refused: "Time is too far from now" });
    expect(verifyAuthorization(header, now - 6 * 60_000)).toEqual({ refused: "Time is too far from now" });
    const otherTime = `${header.slice(0, 194)}1790000001`;
    expect(verifyAuthorization(otherTime, now)).toEqual({ refused: "Signature was invalid" });
  });
});
