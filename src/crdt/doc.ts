import * as A from "@automerge/automerge/slim";
import { base64 } from "@scure/base";

/** A contact the owner keeps (filled in by the nostr work). */
export type ContactRecord = {
  id: string;
  name: string;
  npub: string | null;
  ln_address: string | null;
  lnurl: string | null;
  image_url: string | null;
  is_followed: boolean;
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

export const emptyDoc = (): Doc => A.init<WalletDoc>({ actor: "00" });

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
