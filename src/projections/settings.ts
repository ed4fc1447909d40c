import type { ContactRecord, Doc } from "../crdt/doc";

export const DEFAULT_FIAT = "USD";

export interface SettingsView {
  readonly fiat: string;
  /** Zaps are paid even to hodl-invoice providers (admin page toggle). */
  readonly should_zap_hodl: boolean;
}

export const settingsOf = (doc: Doc): SettingsView => ({
  fiat: doc.settings?.fiat ?? DEFAULT_FIAT,
  should_zap_hodl: doc.settings?.should_zap_hodl ?? false,
});

export const labelsOf = (doc: Doc): { readonly [id: string]: readonly string[] } => doc.labels ?? {};

export const contactsOf = (doc: Doc): readonly ContactRecord[] =>
  Object.values(doc.contacts ?? {})
    .map((c) => ({ ...c }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
