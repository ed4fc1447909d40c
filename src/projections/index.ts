import type { ContactRecord, Doc } from "../crdt/doc";
import type { WalletEvent } from "../events/types";
import { ACTIVITY_PAGE, type ActivityItem, activityItems } from "./activity";
import { type BalanceView, balanceOf } from "./balance";
import { crdtProjection, noEdits } from "./crdt";
import { type LightningState, lightningProjection } from "./lightning";
import { type NostrState, nostrProjection, type ProfileView, profileView } from "./nostr";
import { type OnchainState, onchainProjection } from "./onchain";
import { contactsOf, withContacts } from "./contacts";
import { labelsOf, type SettingsView, settingsOf } from "./settings";
import { type WalletView, walletProjection } from "./wallet";

/** Every fold's state. Folding the same log always gives the same `States`; folds update it in place. */
export interface States {
  readonly seq: number;
  readonly wallet: WalletView;
  readonly onchain: OnchainState;
  readonly lightning: LightningState;
  readonly crdt: Doc | null;
  readonly nostr: NostrState;
}

export const initialStates = (): States => ({
  seq: 0,
  wallet: walletProjection.initial(),
  onchain: onchainProjection.initial(),
  lightning: lightningProjection.initial(),
  crdt: crdtProjection.initial(),
  nostr: nostrProjection.initial(),
});

export const foldEvent = (s: States, e: WalletEvent): States => ({
  seq: e.seq ?? s.seq + 1,
  wallet: walletProjection.apply(s.wallet, e),
  onchain: onchainProjection.apply(s.onchain, e),
  lightning: lightningProjection.apply(s.lightning, e),
  crdt: crdtProjection.apply(s.crdt, e),
  nostr: nostrProjection.apply(s.nostr, e),
});

export const foldEvents = (events: Iterable<WalletEvent>, from: States = initialStates()): States => {
  let s = from;
  for (const e of events) s = foldEvent(s, e);
  return s;
};

export interface ChannelView {
  readonly channel_id: string;
  readonly outpoint: string;
  readonly peer: string;
  readonly balance: bigint;
  readonly reserve: bigint;
  readonly inbound: bigint;
  readonly size: bigint;
  readonly is_usable: boolean;
}
export interface ChannelTotals {
  readonly balance: bigint;
  readonly reserve: bigint;
  readonly inbound: bigint;
}

const totalsOf = (channels: readonly ChannelView[]): ChannelTotals => ({
  balance: channels.reduce((sum, c) => sum + c.balance, 0n),
  reserve: channels.reduce((sum, c) => sum + c.reserve, 0n),
  inbound: channels.reduce((sum, c) => sum + c.inbound, 0n),
});

export interface FederationView {
  readonly federation_id: string;
  readonly federation_name: string;
  readonly balance: bigint;
  readonly popup_countdown_message: string | null;
  readonly popup_end_timestamp: number | null;
}
export interface NwcView {
  readonly profiles: readonly { readonly index: number; readonly name: string }[];
  readonly pending: readonly { readonly id: string; readonly amount_sats: bigint }[];
}

/** What the screens read; pushed from the worker whenever it changes. */
export interface Views {
  readonly wallet: WalletView;
  readonly balance: BalanceView;
  readonly activity: { readonly items: readonly ActivityItem[]; readonly total: number };
  readonly settings: SettingsView;
  readonly contacts: readonly ContactRecord[];
  readonly channels: readonly ChannelView[];
  /** The channels' totals (the channels screen's header). */
  readonly channel_totals: ChannelTotals;
  readonly federations: readonly FederationView[];
  readonly nwc: NwcView;
  /** The owner's nostr key and profile (spec 2 profile and nostr keys). */
  readonly profile: ProfileView;
}
export type ViewName = keyof Views;

export const deriveViews = (s: States): Views => {
  const doc = s.crdt ?? noEdits;
  const contacts = doc.contacts ?? {};
  // Payments labelled with a contact's id show that contact on their rows.
  const items = withContacts(activityItems(s.onchain, labelsOf(doc), s.lightning), contacts);
  const channels = s.lightning.channels.map((c) => ({
    channel_id: c.channel_id,
    outpoint: c.outpoint ?? "",
    peer: c.peer,
    balance: BigInt(c.balance),
    reserve: BigInt(c.reserve),
    inbound: BigInt(c.inbound),
    size: BigInt(c.size),
    is_usable: c.is_usable,
  }));
  return {
    wallet: s.wallet,
    balance: balanceOf(s.onchain, s.lightning),
    activity: { items: items.slice(0, ACTIVITY_PAGE), total: items.length },
    settings: settingsOf(doc),
    contacts: contactsOf(contacts, items),
    channels,
    channel_totals: totalsOf(channels),
    federations: [],
    nwc: { profiles: [], pending: [] },
    profile: profileView(s.nostr),
  };
};
