/**
 * Where the lightning node keeps its state: the channel manager, one monitor per channel and the outputs
 * waiting to be swept. In the wallet this is the `kv` table (sealed at rest when a password is set); the
 * local world keeps its node in memory.
 */
export interface BlobWrite {
  readonly key: string;
  /** `null` deletes the key. */
  readonly value: Uint8Array | null;
}

export interface BlobStore {
  readonly get: (key: string) => Promise<Uint8Array | undefined>;
  /** Writes every entry, all or none. Resolves once they are durable. */
  readonly put: (writes: readonly BlobWrite[]) => Promise<void>;
  readonly keys: (prefix: string) => Promise<string[]>;
}

/** Every key the node writes starts with this prefix. */
export const LN_PREFIX = "ln/";
export const MANAGER_KEY = `${LN_PREFIX}manager`;
export const MONITOR_PREFIX = `${LN_PREFIX}monitor/`;
export const SWEEP_PREFIX = `${LN_PREFIX}sweep/`;
/** Monitors of channels closed and fully resolved long ago: kept, but never loaded again. */
export const ARCHIVE_PREFIX = `${LN_PREFIX}archive/`;

export class MemoryBlobStore implements BlobStore {
  readonly data = new Map<string, Uint8Array>();
  get = async (key: string) => this.data.get(key)?.slice();
  put = async (writes: readonly BlobWrite[]) => {
    for (const w of writes) {
      if (w.value === null) this.data.delete(w.key);
      else this.data.set(w.key, w.value.slice());
    }
  };
  keys = async (prefix: string) => [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
}
