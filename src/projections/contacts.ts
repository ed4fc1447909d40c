import type { ContactRecord, WalletDoc } from "../crdt/doc";
import type { ActivityItem } from "./activity";

/** Home's contacts strip shows up to this many (spec 1 §9). */
export const CONTACT_STRIP_LIMIT = 40;

type Contacts = WalletDoc["contacts"];

/**
 * Activity rows with their contacts: a label that is a contact's id (a payment to or from that contact)
 * moves from `labels` to `contacts`; the id of a deleted contact is dropped, never shown bare.
 */
export const withContacts = (items: readonly ActivityItem[], contacts: Contacts): ActivityItem[] =>
  items.map((item) => {
    if (!item.labels.some((l) => Object.hasOwn(contacts, l))) return item;
    const labels: string[] = [];
    const ids: string[] = [...item.contacts];
    for (const l of item.labels) {
      const c = Object.hasOwn(contacts, l) ? contacts[l] : undefined;
      if (!c) labels.push(l);
      else if (!c.deleted && !ids.includes(l)) ids.push(l);
    }
    return { ...item, labels, contacts: ids };
  });

/**
 * The labels of a request that the payer may see (its BIP21 label, its invoice's description): a label
 * that is a contact's id links the payment to that contact in the owner's own activity and never leaves
 * the wallet.
 */
export const shownLabels = (labels: readonly string[], contacts: Contacts): string[] =>
  labels.filter((l) => !Object.hasOwn(contacts, l));

/**
 * The contacts as screens list them (get_contacts_sorted): deleted ones left out, the most recent first:
 * the later of when it was created and its newest payment; ties by name, then id, so the order is total.
 */
export const contactsOf = (contacts: Contacts, items: readonly ActivityItem[]): ContactRecord[] => {
  const lastPaid = new Map<string, number>();
  for (const item of items) {
    const at = item.last_updated || item.seen_at;
    for (const id of item.contacts) lastPaid.set(id, Math.max(lastPaid.get(id) ?? 0, at));
  }
  const recency = (c: ContactRecord) => Math.max(c.created_at ?? 0, lastPaid.get(c.id) ?? 0);
  return Object.values(contacts)
    .filter((c) => !c.deleted)
    .map((c) => ({ ...c }))
    .sort(
      (a, b) =>
        recency(b) - recency(a) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
};

/** The hex public key's or npub's contact (get_contact_for_npub), compared as given; null when none. */
export const contactForNpub = (contacts: Contacts, npub: string): ContactRecord | null =>
  Object.values(contacts).find((c) => !c.deleted && c.npub === npub) ?? null;
