/**
 * Plus's terms and the checks every Plus service shares (the services' own, services/plus.ts, and the local
 * world's, harness/plus.ts): the plans, the paid period and its grace, a member's wallet-connect URI, and the
 * NIP-98 signer of a request.
 */
import type { IncomingHttpHeaders } from "node:http";
import { hex } from "@scure/base";
import { unpackEventFromToken, validateEvent } from "nostr-tools/nip98";
import { getPublicKey } from "nostr-tools/pure";
import { installRelaySocket } from "../nostr/socket";
import { HttpError, schemeOf } from "../http";

// Node 20 has no global WebSocket: the relay connections use one that a stalled handshake cannot crash.
installRelaySocket();

export interface Plan {
  readonly id: number;
  readonly amount_sat: number;
}

/** A paid period and the grace after it. */
export const PERIOD_S = 30 * 24 * 3600;
export const GRACE_S = 3 * 24 * 3600;

export const isActive = (timestamp: number | null, nowS: number): boolean =>
  timestamp !== null && timestamp + GRACE_S > nowS;

/** Parses a `nostr+walletconnect://` URI; the client secret's public key is the member's key. */
export const parseNwc = (uri: string): { pubkey: string } => {
  const m = uri.match(/^nostr\+walletconnect:\/\/([0-9a-f]{64})\?(.+)$/);
  if (!m) throw new HttpError(400, "nwc must be a nostr+walletconnect URI");
  const q = new URLSearchParams(m[2]);
  const secret = q.get("secret") ?? "";
  if (!/^[0-9a-f]{64}$/.test(secret) || !q.get("relay"))
    throw new HttpError(400, "nwc lacks its relay or secret");
  return { pubkey: getPublicKey(hex.decode(secret)) };
};

/** The signer of a NIP-98 `Authorization` header for `method` on `path` of this server. */
export const nip98Signer = async (
  path: string,
  method: string,
  headers: IncomingHttpHeaders | undefined,
): Promise<string> => {
  const auth = headers?.authorization;
  if (!auth) throw new HttpError(401, "Authorization required");
  try {
    const event = await unpackEventFromToken(auth);
    await validateEvent(event, `${schemeOf(headers)}://${headers?.host ?? ""}${path}`, method);
    return event.pubkey;
  } catch (e) {
    throw new HttpError(401, e instanceof Error ? e.message : "Bad authorization");
  }
};
