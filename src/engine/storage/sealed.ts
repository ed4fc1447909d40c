/**
 * The wallet's view of its store: named values it writes and reads, of which the server sees only opaque
 * names, sizes and versions.
 *
 * - A name (`monitors/<outpoint>`, `manager`, `device_lock`, ...) is stored as base64url(n ‖ c): n the first
 *   12 bytes of HMAC-SHA256(name-mac, name), c the name sealed with ChaCha20-Poly1305 under name-enc and
 *   nonce n. The same name always gives the same opaque name (so a write finds its key again), the server
 *   cannot tell names apart or guess them, and a listing decodes back to names with the wallet's keys.
 * - A value is vss.proto's `Storable`: `data` is `PlaintextBlob{value, version}` sealed with ChaCha20-Poly1305
 *   under the data key with a fresh random nonce, the associated data being the opaque name (a blob moved
 *   to another key does not open), and `encryption_metadata` its cipher, nonce and tag. `version` is the
 *   version the write gives the key, so a read compares it with the server's: a server cannot present an
 *   old value under a new version, and the caller learns each value's true version.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import { badAnswer, StorageRefused } from "./errors";
import type { StorageKeys } from "./keys";
import type { KeyVersion, PreparedRequest, VssClient } from "./vss-client";
import { EncryptionMetadataSchema, PlaintextBlobSchema, StorableSchema } from "./vss-proto";

export const CIPHER_FORMAT = "ChaCha20Poly1305RFC";
const NONCE = 12;
const TAG = 16;
const MAX_NAME = 400;

export interface SealedValue {
  readonly version: bigint;
  readonly value: Uint8Array;
}

export interface SealedWrite {
  readonly name: string;
  /** The version this write is conditional on: 0 for a new name, the last read or written one after, -1 none. */
  readonly version: bigint;
  readonly value: Uint8Array;
}

export interface SealedStore {
  readonly get: (name: string) => Promise<SealedValue | null>;
  /** Writes and deletes atomically; each written name's version becomes `version + 1` (1 after a -1 write). */
  readonly put: (
    writes: readonly SealedWrite[],
    deletes?: readonly { name: string; version: bigint }[],
    globalVersion?: bigint,
  ) => Promise<void>;
  readonly delete: (name: string, version: bigint) => Promise<void>;
  /** `delete(name, version)` signed now, for another to send later (the page as it closes). */
  readonly deleteRequest: (name: string, version: bigint) => PreparedRequest;
  /** Every name with its version, and the store's global version. */
  readonly list: () => Promise<{ names: { name: string; version: bigint }[]; globalVersion: bigint }>;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The version a write conditional on `version` leaves on the server. */
export const versionAfter = (version: bigint): bigint => (version === -1n ? 1n : version + 1n);

export const opaqueName = (keys: StorageKeys, name: string): string => {
  const bytes = utf8.encode(name);
  if (bytes.length === 0 || bytes.length > MAX_NAME)
    throw new StorageRefused({ message: `A stored name must be 1 to ${MAX_NAME} bytes`, code: "invalid" });
  const nonce = hmac(sha256, keys.nameMac, bytes).slice(0, NONCE);
  return base64urlnopad.encode(
    new Uint8Array([...nonce, ...chacha20poly1305(keys.nameEnc, nonce).encrypt(bytes)]),
  );
};

/** The wallet's name behind an opaque one, or null if it is not one the wallet's keys made. */
export const revealName = (keys: StorageKeys, opaque: string): string | null => {
  try {
    const raw = base64urlnopad.decode(opaque);
    if (raw.length <= NONCE + TAG) return null;
    const nonce = raw.slice(0, NONCE);
    const bytes = chacha20poly1305(keys.nameEnc, nonce).decrypt(raw.slice(NONCE));
    const expected = hmac(sha256, keys.nameMac, bytes).slice(0, NONCE);
    if (!expected.every((b, i) => b === nonce[i])) return null;
    return fromUtf8.decode(bytes);
  } catch {
    return null;
  }
};

export const sealValue = (
  keys: StorageKeys,
  opaque: string,
  value: Uint8Array,
  version: bigint,
): Uint8Array => {
  const nonce = randomBytes(NONCE);
  const blob = toBinary(PlaintextBlobSchema, create(PlaintextBlobSchema, { value, version }));
  const sealed = chacha20poly1305(keys.data, nonce, utf8.encode(opaque)).encrypt(blob);
  return toBinary(
    StorableSchema,
    create(StorableSchema, {
      data: sealed.slice(0, sealed.length - TAG),
      encryptionMetadata: create(EncryptionMetadataSchema, {
        cipherFormat: CIPHER_FORMAT,
        nonce,
        tag: sealed.slice(sealed.length - TAG),
      }),
    }),
  );
};

/** The value and the version sealed inside a stored blob; a blob that does not open is a bad answer. */
export const openValue = (keys: StorageKeys, opaque: string, stored: Uint8Array): SealedValue => {
  try {
    const s = fromBinary(StorableSchema, stored);
    // Only the wallet's own encoding is accepted: protobuf would also read other byte strings as the same
    // message, and stored bytes that changed are a server's doing.
    const same = toBinary(StorableSchema, s);
    if (same.length !== stored.length || same.some((b, i) => b !== stored[i]))
      throw new Error("not canonical");
    const meta = s.encryptionMetadata;
    if (
      !meta ||
      meta.cipherFormat !== CIPHER_FORMAT ||
      meta.nonce.length !== NONCE ||
      meta.tag.length !== TAG
    )
      throw new Error("not sealed by this wallet");
    const blob = chacha20poly1305(keys.data, meta.nonce, utf8.encode(opaque)).decrypt(
      new Uint8Array([...s.data, ...meta.tag]),
    );
    const p = fromBinary(PlaintextBlobSchema, blob);
    return { version: p.version, value: p.value };
  } catch {
    throw badAnswer("a stored value does not open with this wallet's key");
  }
};

export const sealedStore = (client: VssClient, keys: StorageKeys): SealedStore => {
  const opaque = (name: string) => opaqueName(keys, name);
  return {
    get: async (name) => {
      const key = opaque(name);
      const item = await client.getObject(key);
      if (!item) return null;
      const open = openValue(keys, key, item.value);
      if (open.version !== item.version)
        throw badAnswer(
          `${name} is served at version ${item.version} but was written as version ${open.version}`,
        );
      return open;
    },
    put: async (writes, deletes = [], globalVersion) => {
      await client.putObjects({
        items: writes.map((w) => {
          const key = opaque(w.name);
          return { key, version: w.version, value: sealValue(keys, key, w.value, versionAfter(w.version)) };
        }),
        deletes: deletes.map((d): KeyVersion => ({ key: opaque(d.name), version: d.version })),
        ...(globalVersion !== undefined ? { globalVersion } : {}),
      });
    },
    delete: (name, version) => client.deleteObject({ key: opaque(name), version }),
    deleteRequest: (name, version) => client.deleteRequest({ key: opaque(name), version }),
    list: async () => {
      const listing = await client.listKeyVersions();
      const names = listing.keys.map((k) => {
        const name = revealName(keys, k.key);
        if (name === null) throw badAnswer("the store lists a key this wallet did not write");
        return { name, version: k.version };
      });
      return { names, globalVersion: listing.globalVersion };
    },
  };
};
