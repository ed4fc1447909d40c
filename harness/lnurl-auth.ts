/**
 * A local LNURL-auth service (LUD-04): hands out login LNURLs with fresh challenges, verifies the wallet's
 * signature with secp256k1 and records which linking key logged in with which challenge.
 *
 *   GET /login                 → {lnurl, url, k1}: a new login request
 *   GET /auth?tag=login&k1=…&sig=…&key=…   → {"status":"OK"} or {"status":"ERROR","reason":…}
 *   GET /logins?k1=…           → {loggedIn, key}: whether that challenge was used to log in, and by which key
 */
import { randomBytes } from "node:crypto";
import { verifyChallenge } from "../src/engine/lnurl/auth";
import { encodeLnurl } from "../src/engine/parse/lnurl";
import { type JsonReply, lnurlError, serveJson } from "../services/http-json";

export interface LnurlAuthService {
  readonly base: string;
  /** A new login request: the plain URL and its bech32 LNURL. */
  readonly newLogin: (action?: string) => { url: string; lnurl: string; k1: string };
  /** The linking key that logged in with `k1`, or null. */
  readonly loginOf: (k1: string) => string | null;
  readonly handle: (url: URL) => JsonReply;
  readonly stop: () => Promise<void>;
}

export const startLnurlAuth = async (
  opts: { host?: string; port?: number } = {},
): Promise<LnurlAuthService> => {
  const pending = new Set<string>();
  const logins = new Map<string, string>();
  let base = "";

  const newLogin = (action?: string) => {
    const k1 = randomBytes(32).toString("hex");
    pending.add(k1);
    const url = `${base}/auth?tag=login&k1=${k1}${action ? `&action=${encodeURIComponent(action)}` : ""}`;
    return { url, lnurl: encodeLnurl(url), k1 };
  };

  const handle = (url: URL): JsonReply => {
    const q = url.searchParams;
    if (url.pathname === "/login") return { status: 200, json: newLogin(q.get("action") ?? undefined) };
    if (url.pathname === "/logins") {
      const key = logins.get(q.get("k1") ?? "") ?? null;
      return { status: 200, json: { loggedIn: key !== null, key } };
    }
    if (url.pathname === "/auth") {
      const k1 = q.get("k1") ?? "";
      const sig = q.get("sig") ?? "";
      const key = q.get("key") ?? "";
      if (q.get("tag") !== "login") return lnurlError("Not a login request");
      if (!pending.has(k1)) return lnurlError("Unknown or used challenge");
      if (!/^0[23][0-9a-f]{64}$/i.test(key)) return lnurlError("The key must be a compressed public key");
      if (!verifyChallenge(k1, sig, key)) return lnurlError("Bad signature");
      pending.delete(k1);
      logins.set(k1, key.toLowerCase());
      return { status: 200, json: { status: "OK" } };
    }
    return { status: 404, json: { status: "ERROR", reason: "Not found" } };
  };

  const http = await serveJson(handle, opts.host, opts.port);
  base = http.base;
  return { base, newLogin, loginOf: (k1) => logins.get(k1) ?? null, handle, stop: http.stop };
};
