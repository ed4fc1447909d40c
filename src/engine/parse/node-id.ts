/** Lightning node ids: a 33-byte compressed public key in hex, optionally with `@host:port`. */
import { secp256k1 } from "@noble/curves/secp256k1.js";

export interface NodeId {
  /** Lower-case hex of the compressed key. */
  readonly pubkey: string;
  readonly host: string | null;
  readonly port: number | null;
}

const NODE_ID = /^(0[23][0-9a-f]{64})(?:@(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5}))?$/;

/** Reads `pubkey` or `pubkey@host:port` (any case), or null when the key is not a point on the curve. */
export const decodeNodeId = (text: string): NodeId | null => {
  const match = NODE_ID.exec(text.toLowerCase());
  if (match === null) return null;
  const [, pubkey = "", host, port] = match;
  try {
    secp256k1.Point.fromHex(pubkey);
  } catch {
    return null;
  }
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  return { pubkey, host: host ?? null, port: port === undefined ? null : Number(port) };
};
