/**
 * Fedimint invite codes: bech32m (human-readable part `fed1`) of the consensus encoding of
 * `InviteCode(Vec<InviteCodePart>)` (fedimint-core `invite_code.rs`). Fedimint encodes integers as
 * BigSize (the lightning varint, big-endian), a `Vec` as its length then its items, a `String` as its byte
 * length then UTF-8, and each enum variant as its index then its fields as length-prefixed bytes (so a
 * reader skips variants it does not know). Parts: 0 `Api { url, peer }`, 1 `FederationId([u8; 32])`,
 * 2 `ApiSecret(String)`.
 */
import { bech32m, hex, utf8 } from "@scure/base";

export interface FedimintInvite {
  /** The invite as given, lower case. */
  readonly code: string;
  /** 64 hex digits. */
  readonly federationId: string;
  /** Every guardian the invite names (at least one). */
  readonly guardians: readonly { readonly url: string; readonly peer: number }[];
  readonly apiSecret: string | null;
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.at === this.bytes.length;
  }
  take(n: number): Uint8Array {
    if (n < 0 || this.at + n > this.bytes.length) throw new Error("the invite code ends early");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  bigSize(): number {
    const first = this.take(1)[0] as number;
    const wide = (n: number, min: number) => {
      let v = 0;
      for (const b of this.take(n)) v = v * 256 + b;
      // BigSize is canonical: a value that fits a shorter form must use it.
      if (v < min || !Number.isSafeInteger(v)) throw new Error("the invite code has a malformed number");
      return v;
    };
    if (first < 0xfd) return first;
    if (first === 0xfd) return wide(2, 0xfd);
    if (first === 0xfe) return wide(4, 0x10000);
    return wide(8, 0x100000000);
  }
  bytesWithLength(): Uint8Array {
    return this.take(this.bigSize());
  }
  string(): string {
    return utf8.encode(this.bytesWithLength());
  }
}

/** Decodes a `fed11…` invite; null when it is not a valid one (checksum, encoding, no guardian or no id). */
export const decodeInvite = (text: string): FedimintInvite | null => {
  const trimmed = text.trim();
  if (trimmed !== trimmed.toLowerCase() && trimmed !== trimmed.toUpperCase()) return null;
  const code = trimmed.toLowerCase();
  if (!code.startsWith("fed11")) return null;
  try {
    const { prefix, words } = bech32m.decode(code as `${string}1${string}`, false);
    if (prefix !== "fed1") return null;
    const r = new Reader(bech32m.fromWords(words));
    const parts = r.bigSize();
    const guardians: { url: string; peer: number }[] = [];
    let federationId: string | null = null;
    let apiSecret: string | null = null;
    for (let i = 0; i < parts; i++) {
      const variant = r.bigSize();
      const body = new Reader(r.bytesWithLength());
      if (variant === 0) {
        const url = body.string();
        const peer = body.bigSize();
        if (!/^wss?:\/\//i.test(url) || peer > 0xffff) return null;
        guardians.push({ url, peer });
      } else if (variant === 1) {
        federationId = hex.encode(body.take(32));
      } else if (variant === 2) {
        apiSecret = body.string();
      } else continue;
      if (!body.done) return null;
    }
    if (!r.done || guardians.length === 0 || federationId === null) return null;
    return { code, federationId, guardians, apiSecret };
  } catch {
    return null;
  }
};
