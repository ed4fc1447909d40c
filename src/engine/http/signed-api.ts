/**
 * What the wallet's clients of the operator's signed APIs (Plus, the lightning-address service) share: a
 * request signed with a client key (NIP-98), and an answer believed only once a schema has read it.
 */
import { getToken } from "nostr-tools/nip98";
import { finalizeEvent } from "nostr-tools/pure";
import type { FetchFn } from "./bounded";

/** The `Authorization` header of a `method` request to `url`, signed with `secret` (NIP-98, with the scheme). */
const signedRequestAuth = (url: string, method: string, secret: Uint8Array): Promise<string> =>
  getToken(url, method, (e) => finalizeEvent(e, secret), true);

/** A GET of `url` through `http`, signed with `secret`. */
export const getSigned = async (http: FetchFn, url: string, secret: Uint8Array): Promise<Response> =>
  http(url, { headers: { authorization: await signedRequestAuth(url, "get", secret) } });

/** `body` as JSON, POSTed to `url` through `http`, signed with `secret`. */
export const postSigned = async (
  http: FetchFn,
  url: string,
  secret: Uint8Array,
  body: unknown,
): Promise<Response> =>
  http(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: await signedRequestAuth(url, "post", secret),
    },
    body: JSON.stringify(body),
  });

/**
 * `res`'s JSON body through `decode`. A status other than 2xx is refused with `refuse` of the status and the
 * start of the body; an answer `decode` does not read, with `refuse(unreadable)`.
 */
export const readAnswer = async <A>(
  res: Response,
  decode: (u: unknown) => A,
  refuse: (message: string) => Error,
  unreadable: string,
): Promise<A> => {
  if (!res.ok) throw refuse(`${res.status} ${(await res.text()).slice(0, 200)}`);
  try {
    return decode(await res.json());
  } catch {
    throw refuse(unreadable);
  }
};
