import * as A from "@automerge/automerge/slim";
import { base64 } from "@scure/base";

/**
 * A contact the owner keeps (spec 2 §3). Each field is set on its own, so edits of different fields on two
 * devices both survive a merge. A deleted contact stays as a blank tombstone (`deleted`), so an edit made
 * on another device before it saw the delete cannot bring it back, and payments labelled with its id do
 * not show a bare id.
 */
export type ContactRecord = {
  id: string;
  name: string;
  npub: string | null;
  ln_address: string | null;
  lnurl: string | null;
  image_url: string | null;
  is_followed: boolean;
  /** When it was created (unix seconds; absent on contacts from before it was recorded). */
  created_at?: number;
  deleted?: boolean;
};

/** Budget periods of a wallet-connect connection: Day, Week, Month, Year (codes 0 to 3). */
export type BudgetPeriod = 0 | 1 | 2 | 3;

/**
 * A wallet-connect connection (spec 2 §3). Its keys are derived from the seed by `index`, never stored.
 * `budget_sats` is what it may pay each period without asking (decimal sats); `app_pubkey` is the app's
 * own key when the app asked for the connection (an authorization request), else null.
 */
export type NwcProfileRecord = {
  index: number;
  name: string;
  label: string | null;
  tag: "Gift" | "Subscription" | "General";
  require_approval: boolean;
  budget_sats: string;
  budget_period: BudgetPeriod;
  /** The budget was fixed by the app (authorization request) or the subscription: the owner cannot edit it. */
  budget_fixed: boolean;
  enabled: boolean;
  app_pubkey: string | null;
  created_at: number;
  /**
   * Deleted by the owner. The record stays so its index is never given again: the keys come from the
   * index, and an app that kept the old URI must not reach a new connection.
   */
  deleted?: boolean;
};

/**
 * The owner-edited state that travels with the wallet and merges across devices. Every local change is
 * stored as a `crdt.change` event, so importing another device's export merges rather than overwrites.
 */
export type WalletDoc = {
  settings: { fiat?: string; should_zap_hodl?: boolean };
  /** Labels per activity item id (BIP-329 style tags). */
  labels: { [itemId: string]: string[] };
  contacts: { [id: string]: ContactRecord };
  /** Wallet-connect connections by index (decimal string). */
  nwc: { [index: string]: NwcProfileRecord };
};

export type Doc = A.Doc<WalletDoc>;

let ready: Promise<void> | null = null;

/** Loads Automerge's wasm once: a URL in the browser, the package's file bytes in Node. */
export const initCrdt = (wasm: () => Promise<Uint8Array | string>): Promise<void> => {
  ready ??= (async () => {
    if (!A.isWasmInitialized()) await A.initializeWasm(await wasm());
  })();
  return ready;
};

/**
 * The document every wallet starts from: one change, the same bytes on every device (fixed actor, no
 * time), that creates the top-level maps. Every device's edits build on it, so two devices that each add
 * their first contact merge into one `contacts` map instead of two concurrent ones of which one would win.
 */
export const emptyDoc = (): Doc =>
  A.change(A.init<WalletDoc>({ actor: "00" }), { time: 0 }, (d) => {
    d.settings = {};
    d.labels = {};
    d.contacts = {};
  });

/**
 * What a change made in place left behind: the document `makeChange` changed is outdated (an Automerge
 * document moves on in place), and its successor holds the change. The fold that stores the change's event
 * takes the successor instead of applying the change again.
 */
type Made = { base: Doc; heads: string[]; next: Doc; change: string };
const successors = new WeakMap<Doc, Made>();
/**
 * The newest change made, for a fold whose document is another object at the same heads: a wallet without
 * edits yet reads a fresh empty document each time, so its first change is made on one and folded on another.
 */
let latest: Made | null = null;
/** Documents a fold moved on from: Automerge refuses to change or apply to them again. */
const outdated = new WeakSet<Doc>();

/** A writable copy of `doc` as it was (its own heads), as `actor`. */
const copyAt = (doc: Doc, actor: string): Doc => A.clone(doc, { actor });

const sameHeads = (a: readonly string[], b: readonly string[]) => {
  const sorted = [...b].sort();
  return a.length === b.length && [...a].sort().every((h, i) => h === sorted[i]);
};

/** The successor holding `change` made on `doc` (or on another document at its heads), taken once. */
const take = (doc: Doc, change: string): Made | null => {
  const own = successors.get(doc);
  const made =
    own?.change === change
      ? own
      : !own && !outdated.has(doc) && latest?.change === change && sameHeads(A.getHeads(doc), latest.heads)
        ? latest
        : null;
  if (!made) return null;
  successors.delete(made.base);
  if (latest === made) latest = null;
  return made;
};

/**
 * Applies a stored change; deterministic for the same sequence of changes. The change a command just made
 * on this document (`makeChange`) is already in its successor, which is returned as it is. A document that
 * moved on without this change (a command whose change was never stored) is copied as it was first.
 */
export const applyChange = (doc: Doc, changeB64: string): Doc => {
  const made = take(doc, changeB64);
  if (made) return made.next;
  const own = successors.get(doc);
  const base = own || outdated.has(doc) ? copyAt(doc, A.getActorId(own?.next ?? doc)) : doc;
  const next = A.applyChanges(base, [base64.decode(changeB64)])[0];
  if (next !== base) outdated.add(base);
  return next;
};

/**
 * Makes a local change as this device (`actor`, hex) and returns it as the base64 payload of a
 * `crdt.change` event. Commands run one at a time and the fold owns the document, so the change is made on
 * `doc` itself, not on a copy of the whole document per change: `doc` is then outdated and the fold of the
 * change's event takes its successor. A copy is made only when the document is another actor's (the first
 * local change after a start) or has moved on already (a change made on it that was not stored).
 */
export const makeChange = (doc: Doc, actor: string, edit: (d: WalletDoc) => void): string | null => {
  const inPlace = !successors.has(doc) && !outdated.has(doc) && A.getActorId(doc) === actor;
  const base = inPlace ? doc : copyAt(doc, actor);
  const heads = A.getHeads(base);
  const next = A.change(base, (d) => {
    d.settings ??= {};
    d.labels ??= {};
    d.contacts ??= {};
    d.nwc ??= {};
    edit(d);
  });
  const bytes = next === base ? null : A.getLastLocalChange(next);
  if (!bytes) return null;
  const change = base64.encode(bytes);
  if (inPlace) outdated.add(doc);
  if (!successors.has(doc)) {
    const made = { base: doc, heads, next, change };
    successors.set(doc, made);
    latest = made;
  }
  return change;
};

export const saveDoc = (doc: Doc): string => base64.encode(A.save(doc));

/** The document as Automerge saves it (its whole history, compacted), and back. */
export const saveDocBytes = (doc: Doc): Uint8Array => A.save(doc);
export const loadDocBytes = (bytes: Uint8Array): Doc => A.load<WalletDoc>(bytes);
