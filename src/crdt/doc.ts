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

/**
 * The owner-edited state that travels with the wallet and merges across devices. Every local change is
 * stored as a `crdt.change` event, so importing another device's export merges rather than overwrites.
 */
export type WalletDoc = {
  settings: { fiat?: string; should_zap_hodl?: boolean };
  /** Labels per activity item id (BIP-329 style tags). */
  labels: { [itemId: string]: string[] };
  contacts: { [id: string]: ContactRecord };
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

/** Applies a stored change; deterministic for the same sequence of changes. */
export const applyChange = (doc: Doc, changeB64: string): Doc =>
  A.applyChanges(doc, [base64.decode(changeB64)])[0];

/**
 * Makes a local change on a copy of `doc` as this device (`actor`, hex) and returns it as the base64
 * payload of a `crdt.change` event.
 */
export const makeChange = (doc: Doc, actor: string, edit: (d: WalletDoc) => void): string | null => {
  const next = A.change(A.clone(doc, { actor }), (d) => {
    d.settings ??= {};
    d.labels ??= {};
    d.contacts ??= {};
    edit(d);
  });
  const change = A.getLastLocalChange(next);
  return change ? base64.encode(change) : null;
};

export const saveDoc = (doc: Doc): string => base64.encode(A.save(doc));
