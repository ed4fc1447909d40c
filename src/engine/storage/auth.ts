/**
 * The `Authorization` header of vss-server's signature authorizer (rust/auth-impls/src/signature.rs), so the
 * wallet's store is reachable on any vss-server run with it, and on the world's: the hex of the 33-byte
 * compressed public key, the hex of a 64-byte compact ECDSA signature, then the Unix time in seconds as
 * decimal digits. The signature is over sha256(SIGNING_CONSTANT ‖ public key ‖ the time's digits). The server
 * keeps every store under the public key that signed for it, so no other key reads or writes it.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** 64 bytes, as vss-server spells it. */
export const SIGNING_CONSTANT = utf8ToBytes(
  "VSS Signature Authorizer Signing Salt Constant..................",
);
/**
 * The world's server accepts a signature whose time is within five minutes of its own clock (the wallet
 * dates its headers by the server's `Date`). vss-server itself accepts a day: see
 * docs/decisions/0008-remote-storage.md for what a header seen there can do meanwhile.
 */
export const SIGNATURE_WINDOW_SECS = 5 * 60;
export const VSS_SERVER_WINDOW_SECS = 24 * 60 * 60;

const digest = (pubkey: Uint8Array, time: string) =>
  sha256(concatBytes(SIGNING_CONSTANT, pubkey, utf8ToBytes(time)));

export const signedAuthorization = (secret: Uint8Array, nowMs: number = Date.now()): string => {
  const pubkey = secp256k1.getPublicKey(secret, true);
  const time = String(Math.floor(nowMs / 1000));
  const sig = secp256k1.sign(digest(pubkey, time), secret, { prehash: false });
  return `${bytesToHex(pubkey)}${bytesToHex(sig)}${time}`;
};

/**
 * The store owner a header proves (the public key's hex), or the reason it does not, as the server checks it.
 */
export const verifyAuthorization = (
  header: string | undefined,
  nowMs: number = Date.now(),
  windowSecs: number = SIGNATURE_WINDOW_SECS,
): { readonly owner: string } | { readonly refused: string } => {
  if (!header) return { refused: "Authorization header not found." };
  if (header.length <= (33 + 64) * 2 || !/^[\x20-\x7e]+$/.test(header))
    return { refused: "Authorization header has wrong length" };
  const pubHex = header.slice(0, 66);
  const sigHex = header.slice(66, 194);
  const time = header.slice(194);
  if (!/^[0-9a-fA-F]+$/.test(pubHex + sigHex)) return { refused: "Authorization header is not hex" };
  if (!/^\d{1,20}$/.test(time)) return { refused: "Time is not an integer" };
  const now = Math.floor(nowMs / 1000);
  if (Math.abs(Number(time) - now) > windowSecs) return { refused: "Time is too far from now" };
  try {
    const pubkey = hexToBytes(pubHex);
    const ok = secp256k1.verify(hexToBytes(sigHex), digest(pubkey, time), pubkey, { prehash: false });
    return ok ? { owner: pubHex.toLowerCase() } : { refused: "Signature was invalid" };
  } catch {
    return { refused: "Authorization header has bad pubkey" };
  }
};
