import type { Doc } from "../crdt/doc";

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
