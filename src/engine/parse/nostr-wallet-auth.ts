/**
 * Nostr wallet-auth (NWA) requests: `nostr+walletauth://<app pubkey hex>?relay=wss://…&secret=…`, an app
 * asking the wallet to create a wallet-connect connection for it.
 */

export interface NostrWalletAuth {
  /** The app's public key, lower-case hex. */
  readonly appPubkey: string;
  readonly relays: readonly string[];
  /** The older form's shared secret; the current form (NIP-47 wallet auth) names its methods instead. */
  readonly secret: string | null;
}

/** The query must be URI-safe printable ASCII: the request is passed on inside other URLs as it is. */
const NWA = /^nostr\+walletauth(?:\+[a-z0-9-]+)?:\/\/([0-9a-f]{64})\/?\?([\x21-\x7e]*)$/i;

const isRelayUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === "wss:" || url.protocol === "ws:") && url.hostname !== "";
  } catch {
    return false;
  }
};

/**
 * Reads an NWA request, or null when it lacks the app key, a ws(s) relay, or both the secret (the older
 * form) and the methods it asks for (`request_methods`, the form apps' libraries make now).
 */
export const decodeNostrWalletAuth = (text: string): NostrWalletAuth | null => {
  const match = NWA.exec(text);
  if (match === null) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(match[2]);
  } catch {
    return null;
  }
  const relays = params.getAll("relay");
  const secret = params.get("secret");
  const methods = params.get("request_methods") ?? params.get("required_commands");
  if (relays.length === 0 || !relays.every(isRelayUrl) || (!secret && !methods)) return null;
  return { appPubkey: (match[1] ?? "").toLowerCase(), relays, secret: secret || null };
};
