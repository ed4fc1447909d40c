import { base64 } from "@scure/base";
import { Effect } from "effect";
import type { Doc } from "../../crdt/doc";
import { saveDoc } from "../../crdt/doc";
import type { KvRow, StoredEvent, WalletDb } from "../../events/db";
import { appendChecked, clearLog, logTables, readEvents } from "../../events/log";
import { KV, STORAGE_BLOB_PREFIX } from "../../events/storage-keys";
import { VERSIONS_KEY } from "../../engine/storage/mirrored-store";
import { isEcashBlob, mergeBlob } from "../../engine/ecash/cashu/state";
import { LN_PREFIX, MONITOR_PREFIX } from "../../engine/lightning/store";
import { NETWORKS, type Network, type WalletEvent } from "../../events/types";
import { validateEvent } from "../../events/validate";
import { foldEvents, type States } from "../../projections";
import { impossibleHoldings } from "./state-bounds";
import {
  ImportRejected,
  InvalidInput,
  isWalletError,
  PasswordRequired,
  type WalletError,
  unexpected,
} from "../../errors";

/**
 * `mutiny-state.json`: the whole wallet in one versioned file. The log, the Automerge document and the
 * engine blobs travel inside a password-sealed envelope (secrets never leave the device unencrypted);
 * format, version and network stay readable so a wrong file is refused before asking for a password.
 */
export const STATE_FORMAT = "mutiny-state";
export const STATE_VERSION = 1;
export const STATE_FILE_NAME = "mutiny-state.json";

export interface StateContents {
  readonly walletId: string;
  readonly events: readonly WalletEvent[];
  /** Automerge.save of the owner-edited document, base64 (the events carry the same changes). */
  readonly crdt: string;
  readonly kv: readonly { readonly key: string; readonly value: unknown }[];
}

export interface StateFile {
  readonly format: typeof STATE_FORMAT;
  readonly version: number;
  readonly network: Network;
  readonly exportedAt: number;
  readonly sealed: unknown;
}

/** Seals and opens the contents with a password (the vault, or a faster one in tests). */
export interface StateCipher {
  readonly seal: (value: unknown, password: string) => Promise<unknown>;
  /** Rejects with a WalletError (wrong password, damaged envelope). */
  readonly open: (sealed: unknown, password: string) => Promise<unknown>;
}

/**
 * How the host treats secret entries on the way out and in: `open` gives each row's plain value (sealed
 * entries opened with the unlocked key), `seal` seals plain rows for this device's password, and
 * `keep` lists entries of this device that an import replacing the wallet leaves in place.
 */
export interface AtRest {
  readonly open: (rows: readonly KvRow[]) => Promise<KvRow[]>;
  readonly seal: (rows: readonly KvRow[]) => Promise<KvRow[]>;
  readonly keep: readonly string[];
}

const plainAtRest: AtRest = { open: async (r) => [...r], seal: async (r) => [...r], keep: [] };

/**
 * Entries of this device only, never carried in a file: its id, the password's vault, its record of the
 * storage server, and the routing graph's cache (megabytes, rebuilt from gossip).
 */
const localOnly = (key: string): boolean =>
  key === KV.device ||
  key === KV.vault ||
  key.startsWith(STORAGE_BLOB_PREFIX) ||
  key.startsWith(`${LN_PREFIX}gossip/`);

/** Engine blobs are bytes; JSON carries them as `{ $bytes: base64 }`. */
const toJsonValue = (value: unknown): unknown =>
  value instanceof Uint8Array ? { $bytes: base64.encode(value) } : value;
const fromJsonValue = (value: unknown): unknown => {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { $bytes?: unknown }).$bytes === "string"
  )
    return base64.decode((value as { $bytes: string }).$bytes);
  return value;
};

const KEY = "settings.emergency_kit.import_export";
const rejected = (key: string, message: string, values?: Record<string, string>) =>
  new ImportRejected({ message, key: `${KEY}.${key}`, ...(values ? { values } : {}) });

const tryCipher = <A>(f: () => Promise<A>): Effect.Effect<A, WalletError> =>
  Effect.tryPromise({ try: f, catch: (e) => (isWalletError(e) ? e : unexpected(e)) });

export const exportState = (
  db: WalletDb,
  /** The owner-edited document; null when Automerge could not load (emergency mode): the log carries it. */
  doc: Doc | null,
  network: Network,
  walletId: string,
  password: string,
  cipher: StateCipher,
  now: number,
  atRest: AtRest = plainAtRest,
): Effect.Effect<{ json: string; fileName: string }, WalletError> =>
  Effect.gen(function* () {
    if (password.length === 0)
      return yield* Effect.fail(
        new InvalidInput({
          message: "Please enter a password to protect the file.",
          key: `${KEY}.error_password`,
        }),
      );
    const { events, kv } = yield* tryCipher(() =>
      db.transaction("r", [...logTables(db), db.kv], async () => ({
        events: await readEvents(db),
        kv: await db.kv.toArray(),
      })),
    );
    // Secrets travel opened inside the file's own envelope, so the file needs only its password.
    const rows = yield* tryCipher(() => atRest.open(kv.filter((r) => !localOnly(r.key))));
    const contents: StateContents = {
      walletId,
      events: events.map(({ seq: _seq, ...e }) => e as WalletEvent),
      crdt: doc ? saveDoc(doc) : "",
      kv: rows.map((r) => ({ key: r.key, value: toJsonValue(r.value) })),
    };
    const sealed = yield* tryCipher(() => cipher.seal(contents, password));
    const file: StateFile = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      network,
      exportedAt: now,
      sealed,
    };
    return { json: JSON.stringify(file), fileName: STATE_FILE_NAME };
  });

/** Reads the readable header of a state file: refuses empty text, bad JSON, other formats and networks. */
export const readStateHeader = (text: string, network: Network): Effect.Effect<StateFile, WalletError> =>
  Effect.gen(function* () {
    if (text.trim().length === 0) return yield* Effect.fail(rejected("error_no_text", "The file is empty."));
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return yield* Effect.fail(rejected("error_invalid_json", "The file is not valid JSON."));
    }
    if (typeof raw !== "object" || raw === null || (raw as { format?: unknown }).format !== STATE_FORMAT)
      return yield* Effect.fail(rejected("error_format", "This is not a wallet state file."));
    const f = raw as Record<string, unknown>;
    if (typeof f.version !== "number" || !Number.isInteger(f.version) || f.version < 1)
      return yield* Effect.fail(rejected("error_format", "This is not a wallet state file."));
    if (f.version > STATE_VERSION)
      return yield* Effect.fail(
        rejected(
          "error_version",
          "This file was saved by a newer version of the wallet. Update the wallet, then import it.",
        ),
      );
    if (!NETWORKS.includes(f.network as Network))
      return yield* Effect.fail(rejected("error_format", "This is not a wallet state file."));
    if (f.network !== network)
      return yield* Effect.fail(
        rejected("error_network", `This file is for ${f.network} but this wallet runs on ${network}.`, {
          file: String(f.network),
          wallet: network,
        }),
      );
    if (!("sealed" in f))
      return yield* Effect.fail(rejected("error_format", "This is not a wallet state file."));
    return f as unknown as StateFile;
  });

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** Checks the opened contents completely before anything is written. */
export const validateContents = (raw: unknown): Effect.Effect<StateContents, WalletError> =>
  checkContents(raw).pipe(Effect.map(({ contents }) => contents));

/** `validateContents`, answering also the fold of the file's log that the check made. */
const checkContents = (
  raw: unknown,
): Effect.Effect<{ contents: StateContents; folded: States }, WalletError> =>
  Effect.gen(function* () {
    const damaged = (what: string) =>
      Effect.fail(rejected("error_damaged", `The file is damaged: ${what}.`, { what }));
    if (!isObject(raw)) return yield* damaged("no contents");
    const { walletId, events, crdt, kv } = raw;
    if (typeof walletId !== "string" || walletId.length === 0) return yield* damaged("no wallet id");
    if (!Array.isArray(events)) return yield* damaged("no event log");
    if (typeof crdt !== "string") return yield* damaged("no settings document");
    if (!Array.isArray(kv) || !kv.every((r) => isObject(r) && typeof r.key === "string" && "value" in r))
      return yield* damaged("no engine state");
    const valid: WalletEvent[] = [];
    const ids = new Set<string>();
    for (const raw of events) {
      const e = validateEvent(raw);
      if (typeof e === "string") return yield* damaged(e);
      if (ids.has(e.id)) return yield* damaged(`event ${e.id} appears twice`);
      ids.add(e.id);
      valid.push(e);
    }
    // A wallet restored from its storage server holds the log it was made with on that device and the
    // one it restored, each with its creation: one of them is the wallet's.
    const created = valid.some((e) => e.type === "wallet.created" && e.payload.walletId === walletId);
    if (!created) return yield* damaged("the log does not start a wallet");
    if (!kv.some((r) => r.key === KV.seed)) return yield* damaged("no seed");
    // The document's changes must fold: a corrupt change would break every later start.
    let folded: States;
    try {
      folded = foldEvents(valid);
    } catch (e) {
      return yield* damaged(`the log cannot be read (${e instanceof Error ? e.message : "unknown"})`);
    }
    const impossible = impossibleHoldings(folded, valid);
    if (impossible) return yield* damaged(impossible);
    return { contents: { walletId, events: valid, crdt, kv: kv as StateContents["kv"] }, folded };
  });

/**
 * Imports a state file. The same wallet merges (events deduplicated by id, the document's changes
 * merged); another wallet, or none, is replaced after the owner confirmed it. Everything is checked
 * before the single transaction that writes, so a refused file changes nothing.
 */
export const importState = (
  ...args: Parameters<typeof importStateEvents>
): Effect.Effect<{ imported: number }, WalletError> =>
  importStateEvents(...args).pipe(Effect.map(({ imported }) => ({ imported })));

/**
 * `importState`, answering also what the log became: the file's whole log when it replaced the wallet, or
 * the events it added to this one when it merged (in log order, with their sequence numbers). The host
 * folds that instead of reading the log back; when the file replaced the wallet, `folded` is already the
 * fold of that whole log (the check before writing made it), so it is not folded twice.
 */
export const importStateEvents = (
  db: WalletDb,
  text: string,
  password: string | undefined,
  network: Network,
  currentWalletId: string | null,
  cipher: StateCipher,
  atRest: AtRest = plainAtRest,
): Effect.Effect<
  { imported: number; replaced: boolean; events: readonly StoredEvent[]; folded: States | null },
  WalletError
> =>
  Effect.gen(function* () {
    const file = yield* readStateHeader(text, network);
    if (!password)
      return yield* Effect.fail(
        new PasswordRequired({
          message: "This file is protected: enter its password.",
          key: `${KEY}.password_needed`,
        }),
      );
    const { contents, folded } = yield* checkContents(
      yield* tryCipher(() => cipher.open(file.sealed, password)),
    );
    const merge = currentWalletId === contents.walletId;
    // Merged into this wallet's log, the sums must still be possible (each file alone may be).
    if (merge) yield* checkMerged(db, contents.events);
    // Channel state is only ever in one place: two copies of a channel are how funds are lost.
    const fileLightning = contents.kv.some((r) => r.key.startsWith(LN_PREFIX));
    const deviceChannels =
      (yield* tryCipher(() => db.kv.where("key").startsWith(MONITOR_PREFIX).count())) > 0;
    if (!merge && deviceChannels)
      return yield* Effect.fail(
        rejected(
          "error_channels",
          "This device has lightning channels of its own: close them, or save this wallet's state, before importing another wallet.",
        ),
      );
    // The file's lightning state comes in only where this device has no channels of its own.
    const takeLightning = fileLightning && !deviceChannels;
    const plain = contents.kv
      .filter((r) => !localOnly(r.key))
      .map((r) => ({ key: r.key, value: fromJsonValue(r.value) }));
    // Ecash held at the same mint on both devices: the proof sets are merged, not one kept.
    const merged = merge ? yield* tryCipher(() => mergeEcash(db, plain, atRest)) : new Set<string>();
    // Sealed for this device's password before the transaction: WebCrypto cannot run inside it.
    const rows = yield* tryCipher(() => atRest.seal(plain));
    const keep = [KV.device, ...atRest.keep];
    const imported = yield* tryCipher(() =>
      db.transaction("rw", [...logTables(db), db.kv, db.snapshots], async () => {
        if (!merge) {
          await clearLog(db);
          await db.snapshots.clear();
          const kept = (await db.kv.bulkGet(keep)).filter((r): r is KvRow => r !== undefined);
          await db.kv.clear();
          await db.kv.bulkPut(kept);
        }
        // Joins this transaction, so a failure anywhere below rolls the whole import back. Every event was
        // checked by validateContents just above, so the log's own check is not repeated.
        const fresh = await appendChecked(db, contents.events);
        if (takeLightning) {
          // All of it or none: a manager and its monitors only make sense together.
          const own = (await db.kv.where("key").startsWith(LN_PREFIX).primaryKeys()) as string[];
          // With them goes this device's record of the versions it stored: the next start reconciles anew.
          await db.kv.bulkDelete([...own, VERSIONS_KEY]);
        }
        for (const row of rows) {
          if (row.key.startsWith(LN_PREFIX)) {
            if (takeLightning) await db.kv.put(row);
            continue;
          }
          if (merge && !merged.has(row.key) && (await db.kv.get(row.key))) continue;
          await db.kv.put(row);
        }
        return fresh;
      }),
    );
    // A new log is numbered from 1, as the check's fold numbered it: that fold is the new log's.
    return {
      imported: imported.length,
      replaced: !merge,
      events: imported,
      folded: !merge && imported[0]?.seq === 1 ? folded : null,
    };
  });

/** Refuses a merge whose log, once merged with this device's, adds up to what cannot exist. */
const checkMerged = (db: WalletDb, fileEvents: readonly WalletEvent[]) =>
  Effect.gen(function* () {
    const mine = yield* tryCipher(() => readEvents(db));
    const ids = new Set(mine.map((e) => e.id));
    const all: WalletEvent[] = [...mine, ...fileEvents.filter((e) => !ids.has(e.id))];
    let folded: States;
    try {
      folded = foldEvents(all);
    } catch {
      return; // the file's own log folded (checked above); this device's log is its own
    }
    const impossible = impossibleHoldings(folded, all);
    if (impossible)
      return yield* Effect.fail(
        rejected("error_damaged", `The file is damaged: ${impossible}.`, { what: impossible }),
      );
  });

/**
 * Replaces, in `rows` (the file's plain entries), each ecash blob this device also holds by the two merged
 * (`mergeBlob`); answers the keys merged. Read and opened before the import's transaction (the engines are
 * stopped meanwhile, so nothing writes them in between).
 */
const mergeEcash = async (db: WalletDb, rows: KvRow[], atRest: AtRest): Promise<Set<string>> => {
  const merged = new Set<string>();
  for (const [i, row] of rows.entries()) {
    if (!isEcashBlob(row.key) || !(row.value instanceof Uint8Array)) continue;
    const existing = await db.kv.get(row.key);
    if (!existing) continue;
    const [mine] = await atRest.open([existing]);
    if (!(mine?.value instanceof Uint8Array)) continue;
    const value = mergeBlob(row.key, mine.value, row.value);
    if (!value) continue;
    rows[i] = { key: row.key, value };
    merged.add(row.key);
  }
  return merged;
};

/** Removes every event, blob and snapshot of the wallet on this device. */
export const deleteEverything = (db: WalletDb): Effect.Effect<null, WalletError> =>
  tryCipher(async () => {
    await db.transaction("rw", [...logTables(db), db.kv, db.snapshots], async () => {
      await clearLog(db);
      await db.kv.clear();
      await db.snapshots.clear();
    });
    return null;
  });
