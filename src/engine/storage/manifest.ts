/**
 * What the mirrored store (`mirrored-store.ts`) records of its puts: the device's own record of the versions
 * it gave the store (kept locally), and the writer record sealed on the server with every put (the put's id,
 * the store's global version and every key's version after it, each value's SHA-256, and when), so the
 * server's listing can be checked against what the wallet itself sealed.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { badAnswer } from "./errors";

export interface Versions {
  /** The store's `global_version` after the put. */
  readonly global: bigint;
  /** Each mirrored key's version after the put. */
  readonly keys: ReadonlyMap<string, bigint>;
  /** A random id of the put, also sealed in the store's writer record. */
  readonly putId: string;
  /** When the put was made (ms since the epoch, the writing device's clock); 0 when not known. */
  readonly at: number;
}

/** The record: the versions the last put gives (`intended`) and those before it (`confirmed`, it was released). */
export interface VersionRecord {
  readonly intended: Versions;
  readonly confirmed: Versions;
}

/** The writer record: a put's versions and each key's SHA-256, so the server can swap no value for another. */
export interface Manifest {
  readonly putId: string;
  /** Absent in a record written before versions were sealed (read as the listing says). */
  readonly versions?: Versions;
  readonly digests?: ReadonlyMap<string, string>;
}

const toJson = (v: Versions) => ({
  global: v.global.toString(),
  keys: Object.fromEntries([...v.keys].map(([k, n]) => [k, n.toString()])),
  putId: v.putId,
  at: v.at,
});
const fromJson = (v: {
  global: string;
  keys: { [k: string]: string };
  putId: string;
  at?: number;
}): Versions => ({
  global: BigInt(v.global),
  keys: new Map(Object.entries(v.keys).map(([k, n]) => [k, BigInt(n)])),
  putId: v.putId,
  at: typeof v.at === "number" ? v.at : 0,
});
const utf8 = new TextEncoder();
export const encodeRecord = (r: VersionRecord): Uint8Array =>
  utf8.encode(JSON.stringify({ intended: toJson(r.intended), confirmed: toJson(r.confirmed) }));
export const decodeRecord = (b: Uint8Array | undefined): VersionRecord | null => {
  if (!b) return null;
  const v = JSON.parse(new TextDecoder().decode(b));
  return { intended: fromJson(v.intended), confirmed: fromJson(v.confirmed) };
};
export const encodeManifest = (v: Versions, digests: ReadonlyMap<string, string>): Uint8Array =>
  utf8.encode(
    JSON.stringify({
      ...toJson(v),
      digests: Object.fromEntries([...digests].filter(([k]) => v.keys.has(k))),
    }),
  );
export const decodeManifest = (b: Uint8Array): Manifest => {
  try {
    const v = JSON.parse(new TextDecoder().decode(b));
    if (typeof v?.putId !== "string") throw new Error("no put id");
    if (v.global === undefined) return { putId: v.putId };
    return {
      putId: v.putId,
      versions: fromJson(v),
      digests: new Map(Object.entries(v.digests ?? {}).map(([k, d]) => [k, String(d)])),
    };
  } catch {
    throw badAnswer("the store's writer record does not read");
  }
};
export const digestOf = (value: Uint8Array): string => bytesToHex(sha256(value));
export const newPutId = () =>
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
export const sameKeys = (a: ReadonlyMap<string, bigint>, b: ReadonlyMap<string, bigint>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
