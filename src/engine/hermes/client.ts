/**
 * The lightning-address service's protocol: whether a name is free, reserving one (members only; the
 * request is signed with the subscription connection's client key, NIP-98) and the name this wallet holds.
 * Every answer goes through a schema.
 */
import { Schema } from "effect";
import type { FetchFn } from "../http/bounded";
import { getSigned, postSigned, readAnswer } from "../http/signed-api";

/** Spec 2 §5: not empty; lowercase letters, digits, dash, underscore and dot only. */
export const LN_NAME_RULE = /^[a-z0-9._-]+$/;
export const MAX_LN_NAME = 64;

export type NameProblem = "empty" | "characters";

export const lnNameProblem = (name: string): NameProblem | null =>
  name.length === 0 ? "empty" : name.length > MAX_LN_NAME || !LN_NAME_RULE.test(name) ? "characters" : null;

/** The service refused: `taken` when the name is someone else's. */
export class HermesError extends Error {
  constructor(
    message: string,
    readonly taken = false,
  ) {
    super(message);
  }
}

const base = (host: string) => host.replace(/\/+$/, "");
const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/));
const ReservedAnswer = Schema.Struct({ name: Schema.String, service: Hex64 });
const MineAnswer = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  mint: Schema.optional(Schema.NullOr(Schema.String)),
  pubkey: Schema.optional(Schema.NullOr(Hex64)),
  service: Schema.optional(Hex64),
});
const CheckAnswer = Schema.Struct({ available: Schema.Boolean });

const read = async <A>(res: Response, decode: (u: unknown) => A): Promise<A> => {
  if (res.status === 409) throw new HermesError("Name already taken", true);
  return readAnswer(
    res,
    decode,
    (message) => new HermesError(message),
    "The lightning-address service gave an answer the wallet cannot read",
  );
};

/** The address `name` has at the service `host`: name@host. */
export const addressOf = (host: string, name: string): string => `${name}@${new URL(base(host)).host}`;

export const checkName = async (http: FetchFn, host: string, name: string): Promise<boolean> => {
  const res = await http(`${base(host)}/hermes/names/check?name=${encodeURIComponent(name)}`);
  return (await read(res, Schema.decodeUnknownSync(CheckAnswer))).available;
};

/**
 * Where the service sends payments while the wallet is not reachable: into `mint`, the ecash as a token
 * in a NIP-17 message to `pubkey` (the owner's nostr key).
 */
export interface Fallback {
  readonly mint: string;
  readonly pubkey: string;
}

/** Reserves `name` (or changes its fallback); answers the key the service signs its messages with. */
export const reserveName = async (
  http: FetchFn,
  host: string,
  secret: Uint8Array,
  name: string,
  fallback: Fallback | null,
): Promise<{ name: string; service: string }> => {
  const url = `${base(host)}/hermes/names`;
  const res = await postSigned(http, url, secret, {
    name,
    ...(fallback ? { mint: fallback.mint, pubkey: fallback.pubkey } : {}),
  });
  const got = await read(res, Schema.decodeUnknownSync(ReservedAnswer));
  if (got.name !== name) throw new HermesError("The service reserved another name");
  return got;
};

export interface MyName {
  readonly name: string | null;
  readonly mint: string | null;
  readonly pubkey: string | null;
  readonly service: string | null;
}

export const myName = async (http: FetchFn, host: string, secret: Uint8Array): Promise<MyName> => {
  const url = `${base(host)}/hermes/names/mine`;
  const res = await getSigned(http, url, secret);
  const got = await read(res, Schema.decodeUnknownSync(MineAnswer));
  return { name: got.name, mint: got.mint ?? null, pubkey: got.pubkey ?? null, service: got.service ?? null };
};
