/**
 * What can go wrong talking to the storage server, as tagged values. A command maps them to the owner's
 * words: `StorageUnavailable` is retried (channel updates stay in progress meanwhile), the others are shown.
 */
import { Data } from "effect";

/** The storage server could not be reached, did not answer in time, or failed on its side (retry later). */
export class StorageUnavailable extends Data.TaggedError("StorageUnavailable")<{
  readonly message: string;
  readonly status?: number;
}> {}

/** A conditional write (a key's or the store's version) lost against a newer write: read, then try again. */
export class StorageConflict extends Data.TaggedError("StorageConflict")<{ readonly message: string }> {}

/** The server refused the request: the store's signature (`AUTH_EXCEPTION`) or a malformed request. */
export class StorageRefused extends Data.TaggedError("StorageRefused")<{
  readonly message: string;
  readonly code: "auth" | "invalid";
}> {}

/**
 * The server's answer cannot be trusted: not the protocol's shape, another key than asked for, a value that
 * does not decrypt under the wallet's key, or a version other than the one sealed inside it.
 */
export class StorageBadAnswer extends Data.TaggedError("StorageBadAnswer")<{ readonly message: string }> {}

export type StorageError =
  | StorageUnavailable
  | StorageConflict
  | StorageRefused
  | StorageBadAnswer
  | StorageRollback
  | StateTakenOver;

export const UNREACHABLE_TEXT = "The storage server could not be reached.";
export const unavailable = (status?: number) =>
  new StorageUnavailable({ message: UNREACHABLE_TEXT, ...(status !== undefined ? { status } : {}) });
export const badAnswer = (why: string) =>
  new StorageBadAnswer({ message: `The storage server answered badly: ${why}` });

/**
 * The server holds an older state of a key than this device wrote or saw there: never loaded, since a stale
 * channel monitor loses funds.
 */
export class StorageRollback extends Data.TaggedError("StorageRollback")<{ readonly message: string }> {}

/** Another device wrote this wallet's channel state since this one last did: this device must stop its node. */
export class StateTakenOver extends Data.TaggedError("StateTakenOver")<{ readonly message: string }> {}

export const ROLLBACK_TEXT =
  "The storage server answered an older state of your channels than this device saved. Mutiny will not start from it.";
export const TAKEN_OVER_TEXT = "Mutiny saved your channels from another device, so it stopped here.";
