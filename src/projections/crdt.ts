import { applyChange, type Doc, emptyDoc } from "../crdt/doc";
import { projection } from "./projection";

/**
 * What the views read of a log with no owner edits yet: an empty Automerge document reads the same (every
 * field absent), and this needs no wasm, so a new wallet's views come before Automerge has loaded.
 */
export const noEdits = Object.freeze({}) as Doc;

/** Folds `crdt.change` events into the owner-edited Automerge document. */
export const crdtProjection = projection<Doc | null, Doc>({
  name: "crdt",
  // Created lazily so that importing this module does not need Automerge's wasm yet.
  initial: () => null,
  apply: (doc, e) => (e.type === "crdt.change" ? applyChange(doc ?? emptyDoc(), e.payload.change) : doc),
  view: (doc) => doc ?? emptyDoc(),
});
