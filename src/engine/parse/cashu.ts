/**
 * Cashu ecash tokens (NUT-00): `cashuA` + base64url JSON (V3) and `cashuB` + base64url CBOR (V4), optionally
 * behind a `cashu:` URI scheme.
 */
import { base64urlnopad, utf8 } from "@scure/base";

export interface CashuToken {
  /** The token as given, without a `cashu:` prefix. */
  readonly token: string;
  /** Sum of the proofs in sats; null for V4 tokens and for tokens in another unit. */
  readonly amountSats: bigint | null;
  readonly memo: string | null;
}

const base64urlBytes = (text: string): Uint8Array | null => {
  const unpadded = text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  try {
    return base64urlnopad.decode(unpadded);
  } catch {
    return null;
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** V3: `{token: [{mint, proofs: [{amount, id, secret, C}]}], unit?, memo?}`. */
const readV3 = (bytes: Uint8Array, token: string): CashuToken | null => {
  let json: unknown;
  try {
    json = JSON.parse(utf8.encode(bytes));
  } catch {
    return null;
  }
  if (!isRecord(json) || !Array.isArray(json.token) || json.token.length === 0) return null;
  let total = 0n;
  for (const entry of json.token) {
    if (!isRecord(entry) || typeof entry.mint !== "string" || !Array.isArray(entry.proofs)) return null;
    if (entry.proofs.length === 0) return null;
    for (const proof of entry.proofs) {
      if (!isRecord(proof) || !Number.isSafeInteger(proof.amount) || (proof.amount as number) < 0)
        return null;
      if (typeof proof.secret !== "string" || typeof proof.C !== "string") return null;
      total += BigInt(proof.amount as number);
    }
  }
  const inSats = json.unit === undefined || json.unit === "sat";
  return { token, amountSats: inSats ? total : null, memo: typeof json.memo === "string" ? json.memo : null };
};

/** CBOR major type 5 (map) in the first byte: a V4 token is a map of mint, unit, memo and proofs. */
const CBOR_MAP = 0b101;

/** Reads a Cashu token (V3 fully, V4 as far as its CBOR map header), or null when it is not one. */
export const decodeCashuToken = (text: string): CashuToken | null => {
  const token = /^cashu:(\/\/)?/i.test(text) ? text.replace(/^cashu:(\/\/)?/i, "") : text;
  const version = token.slice(0, 6);
  if (version !== "cashuA" && version !== "cashuB") return null;
  const bytes = base64urlBytes(token.slice(6));
  if (bytes === null || bytes.length === 0) return null;
  if (version === "cashuA") return readV3(bytes, token);
  return (bytes[0] ?? 0) >> 5 === CBOR_MAP ? { token, amountSats: null, memo: null } : null;
};
