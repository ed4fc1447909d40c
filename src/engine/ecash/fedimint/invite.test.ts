import { bech32m } from "@scure/base";
import { describe, expect, test } from "vitest";
import vectors from "../vectors/fedimint-invites.json";
import { decodeInvite } from "./invite";

describe("Fedimint invite codes", () => {
  test.each(vectors.valid)("$federation_id", (v) => {
    const invite = decodeInvite(v.code);
    expect(invite?.federationId).toBe(v.federation_id);
    expect(invite?.guardians).toEqual(v.guardians);
    expect(invite?.apiSecret).toBeNull();
    // Upper case (as QR codes carry it) reads the same.
    expect(decodeInvite(v.code.toUpperCase())?.federationId).toBe(v.federation_id);
  });

  test("a wrong checksum, a mixed case, another prefix or a truncated body is refused", () => {
    const code = vectors.valid[0]?.code as string;
    const last = code.at(-1) === "q" ? "p" : "q";
    expect(decodeInvite(`${code.slice(0, -1)}${last}`)).toBeNull();
    expect(decodeInvite(`F${code.slice(1)}`)).toBeNull();
    expect(decodeInvite(code.replace("fed11", "lnbc1"))).toBeNull();
    const words = bech32m.decode(code as `${string}1${string}`, false).words;
    const short = bech32m.encode("fed1", words.slice(0, words.length - 8), false);
    expect(decodeInvite(short)).toBeNull();
    expect(decodeInvite("")).toBeNull();
  });

  test("parts it does not know are skipped, an api secret is read, and an invite needs a guardian and an id", () => {
    const enc = new TextEncoder();
    const bytes = (...parts: (number | Uint8Array)[]) =>
      Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : [...p])));
    const url = enc.encode("wss://guardian.example/");
    const api = bytes(url.length, url, 3);
    const id = new Uint8Array(32).fill(7);
    const secret = enc.encode("s3cret");
    const unknown = bytes(9, 2, 0xaa, 0xbb);
    const full = bytes(
      4,
      0,
      api.length,
      api,
      1,
      32,
      id,
      9,
      unknown.slice(1),
      2,
      secret.length + 1,
      secret.length,
      secret,
    );
    const code = (b: Uint8Array) => bech32m.encode("fed1", bech32m.toWords(b), false);
    const invite = decodeInvite(code(full));
    expect(invite?.guardians).toEqual([{ url: "wss://guardian.example/", peer: 3 }]);
    expect(invite?.federationId).toBe("07".repeat(32));
    expect(invite?.apiSecret).toBe("s3cret");
    expect(decodeInvite(code(bytes(1, 1, 32, id)))).toBeNull();
    expect(decodeInvite(code(bytes(1, 0, api.length, api)))).toBeNull();
  });
});
