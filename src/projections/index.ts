import type { ContactRecord, Doc } from "../crdt/doc";
import type { WalletEvent } from "../events/types";
import { ACTIVITY_PAGE, type ActivityItem, activityItems, penaltySats } from "./activity";
import { type BalanceView, balanceOf } from "./balance";
import { type ChatState, chatProjection, withZaps } from "./chat";
import { crdtProjection, noEdits } from "./crdt";
import { type DelayState, delayProjection } from "./delays";
import { type EcashState, ecashProjection, ecashTotal, joinedCustodians } from "./ecash";
import { channelSendable, type LightningState, lightningProjection } from "./lightning";
import { addressNotes, type LnAddressState, lnAddressProjection } from "./lnaddress";
import { type NostrState, nostrProjection, ownRecommendation, type ProfileView, profileView } from "./nostr";
import { type NwcState, type NwcView, nwcProjection, nwcViewOf } from "./nwc";
import { fundingGoneIn, type OnchainState, onchainProjection } from "./onchain";
import { type PlusState, type PlusView, plusProjection, plusViewOf } from "./plus";
import { contactsOf, withContacts } from "./contacts";
import { labelsOf, type SettingsView, settingsOf } from "./settings";
import { type WalletView, walletProjection } from "./wallet";

/** Every fold's state. Folding the same log always gives the same `States`; folds update it in place. */
export interface States {
  readonly seq: number;
  /** The newest event's time (unix ms): the moment views are made at when no clock is given (replay). */
  readonly at: number;
  readonly wallet: WalletView;
  readonly onchain: OnchainState;
  readonly lightning: LightningState;
  readonly crdt: Doc | null;
  readonly ecash: EcashState;
  readonly nostr: NostrState;
  readonly nwc: NwcState;
  readonly chat: ChatState;
  readonly lnaddress: LnAddressState;
  readonly plus: PlusState;
  readonly delays: DelayState;
}

export const initialStates = (): States => ({
  seq: 0,
  at: 0,
  wallet: walletProjection.initial(),
  onchain: onchainProjection.initial(),
  lightning: lightningProjection.initial(),
  crdt: crdtProjection.initial(),
  ecash: ecashProjection.initial(),
  nostr: nostrProjection.initial(),
  nwc: nwcProjection.initial(),
  chat: chatProjection.initial(),
  lnaddress: lnAddressProjection.initial(),
  plus: plusProjection.initial(),
  delays: delayProjection.initial(),
});

export const foldEvent = (s: States, e: WalletEvent): States => ({
  seq: e.seq ?? s.seq + 1,
  at: e.at > s.at ? e.at : s.at,
  wallet: walletProjection.apply(s.wallet, e),
  onchain: onchainProjection.apply(s.onchain, e),
  lightning: lightningProjection.apply(s.lightning, e),
  crdt: crdtProjection.apply(s.crdt, e),
  ecash: ecashProjection.apply(s.ecash, e),
  nostr: nostrProjection.apply(s.nostr, e),
  nwc: nwcProjection.apply(s.nwc, e),
  chat: chatProjection.apply(s.chat, e),
  lnaddress: lnAddressProjection.apply(s.lnaddress, e),
  plus: plusProjection.apply(s.plus, e),
  delays: delayProjection.apply(s.delays, e),
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
  /** What can leave in a payment now ("Can send"): nothing while opening, the reserve kept back. */
  readonly sendable: bigint;
  readonly reserve: bigint;
  readonly inbound: bigint;
  readonly size: bigint;
  readonly is_usable: boolean;
  /** Its funding is waiting for confirmations: the channel is opening and what is ours in it is pending. */
  readonly opening: boolean;
  /**
   * Its funding never reached the chain (the server refused it, or it was replaced): the channel never
   * opened, nothing was spent, and it holds none of the owner's coins. Only abandoning it is left.
   */
  readonly never_opened: boolean;
  /** The blocks its partner must wait after closing alone (the window to punish a cheat); null if unrecorded. */
  readonly to_self_delay: number | null;
}
export interface ChannelTotals {
  /** What can leave in a payment now, across the open channels (Send's "up to" is the same figure). */
  readonly balance: bigint;
  readonly reserve: bigint;
  readonly inbound: bigint;
  /** Ours in channels still opening (their funding not yet confirmed): counted, but pending. */
  readonly pending: bigint;
}

/** The channels screen's header: open channels count in the first three, opening ones only as pending. */
const totalsOf = (channels: readonly ChannelView[]): ChannelTotals => {
  const open = channels.filter((c) => !c.opening && !c.never_opened);
  return {
    balance: open.reduce((sum, c) => sum + c.sendable, 0n),
    reserve: open.reduce((sum, c) => sum + c.reserve, 0n),
    inbound: open.reduce((sum, c) => sum + c.inbound, 0n),
    pending: channels.reduce(
      (sum, c) => (c.opening && !c.never_opened ? sum + c.balance + c.reserve : sum),
      0n,
    ),
  };
};

/**
 * How long a channel's peer has been gone (since it was last connected, and unreachable for a while now)
 * before Force close is offered: the last resort it is, never beside a channel that is reconnecting.
 */
export const FORCE_CLOSE_AFTER_MS = 6 * 3_600_000;

/**
 * The channels screen's lists: opening (waiting for confirmations: neither online nor offline, and
 * nothing to force close), then the open ones by whether they can be used now (`usable`, live); of the
 * others, those whose peer the node is dialling (`connecting`) apart from those it could not reach for a
 * while (`offline`), by `peers` (live). Without `peers`, every other open channel is offline. Last the
 * ones that never opened (their funding never reached the chain).
 */
export const channelGroups = (
  channels: readonly ChannelView[],
  usable: ReadonlySet<string>,
  peers?: readonly { readonly pubkey: string; readonly state: string }[],
): {
  opening: ChannelView[];
  online: ChannelView[];
  connecting: ChannelView[];
  offline: ChannelView[];
  never_opened: ChannelView[];
} => {
  const live = channels.filter((c) => !c.never_opened);
  const open = live.filter((c) => !c.opening);
  const away = open.filter((c) => !usable.has(c.channel_id));
  const unreachable = (c: ChannelView) =>
    !peers || peers.some((p) => p.pubkey === c.peer && p.state === "unreachable");
  return {
    opening: live.filter((c) => c.opening),
    online: open.filter((c) => usable.has(c.channel_id)),
    connecting: away.filter((c) => !unreachable(c)),
    offline: away.filter(unreachable),
    never_opened: channels.filter((c) => c.never_opened),
  };
};

/** Whether Force close is offered for a channel whose peer has been gone since `since` (unix ms). */
export const forceCloseOffered = (since: number, now: number): boolean => now - since >= FORCE_CLOSE_AFTER_MS;

/** An ecash custodian the owner joined (spec 2: federation), with what it holds for the wallet. */
export interface FederationView {
  /** A Cashu mint's URL, or a Fedimint federation's id. */
  readonly federation_id: string;
  readonly federation_name: string;
  readonly kind: "cashu" | "fedimint";
  readonly welcome_message: string;
  readonly invite_code: string;
  /** Unix seconds: the end date the custodian announced, or null. */
  readonly federation_expiry_timestamp: number | null;
  readonly balance: bigint;
  readonly popup_countdown_message: string | null;
  readonly popup_end_timestamp: number | null;
  /** The custodian's message of the day, as last read, or null. */
  readonly motd: string | null;
  /** The most it takes in one receive, when it says (a receive method's maximum). */
  readonly max_receive: bigint | null;
  /** The owner's NIP-87 recommendation of it is published or queued (has_recommended_federation). */
  readonly recommended: boolean;
}
export type { NwcView, PlusView };

export interface InterruptedOpen {
  readonly peer: string;
  readonly amount: bigint;
  /** When it was asked for (unix ms). */
  readonly at: number;
}

/** A channel whose partner published a revoked state: the wallet took (or is taking) the whole channel. */
export interface ChannelPenalty {
  readonly channel_id: string;
  /** What came back on-chain once swept; until then, what the channel's outputs bring back. */
  readonly amount: bigint;
  readonly swept: boolean;
  /** When the wallet saw it (unix ms). */
  readonly at: number;
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
  /**
   * Channel opens asked for whose funding never went out (the wallet closed before it): nothing was spent,
   * and the owner is told so. Newest first.
   */
  readonly interrupted_opens: readonly InterruptedOpen[];
  /** Partners that published a revoked state and lost their channel, newest first. */
  readonly penalties: readonly ChannelPenalty[];
  readonly federations: readonly FederationView[];
  readonly nwc: NwcView;
  /** The owner's nostr key and profile (spec 2 profile and nostr keys). */
  readonly profile: ProfileView;
  /** Plus membership: whether the owner is a member, the renewal date, which plans can be joined. */
  readonly plus: PlusView;
}
export type ViewName = keyof Views;

/**
 * The views at `now` (unix ms; the worker's clock, or the newest event's time so a replay gives the same
 * views every time): budgets left and membership depend on the moment as well as the log.
 */
export const deriveViews = (s: States, now: number = s.at): Views => {
  const doc = s.crdt ?? noEdits;
  const contacts = doc.contacts ?? {};
  // Payments labelled with a contact's id show that contact on their rows.
  // A zap whose receipt matched its request shows as one.
  // Tokens paid to the lightning address while the wallet was closed show with their payers' notes.
  const labels = { ...addressNotes(s.lnaddress), ...labelsOf(doc) };
  const items = withZaps(
    withContacts(activityItems(s.onchain, labels, s.lightning, s.ecash), contacts),
    s.chat.zaps,
  );
  const gone = fundingGoneIn(s.onchain);
  const channels = s.lightning.channels.map((c) => ({
    channel_id: c.channel_id,
    outpoint: c.outpoint ?? "",
    peer: c.peer,
    balance: BigInt(c.balance),
    sendable: gone(c.outpoint) ? 0n : channelSendable(c),
    reserve: BigInt(c.reserve),
    inbound: BigInt(c.inbound),
    size: BigInt(c.size),
    is_usable: c.is_usable,
    opening: !c.is_ready,
    never_opened: gone(c.outpoint),
    to_self_delay: s.delays.channels.get(c.channel_id) ?? null,
  }));
  const balance = balanceOf(s.onchain, s.lightning, ecashTotal(s.ecash));
  return {
    wallet: s.wallet,
    balance,
    activity: { items: items.slice(0, ACTIVITY_PAGE), total: items.length },
    settings: settingsOf(doc),
    contacts: contactsOf(contacts, items),
    channels,
    // A channel whose funding never reached the chain holds none of the owner's coins (they stayed on-chain):
    // the node may still list it as opening, but it adds nothing to the totals, as to the balance.
    channel_totals: totalsOf(channels),
    interrupted_opens: s.lightning.interruptedOpens
      .map((o) => ({ peer: o.peer, amount: o.amountSats, at: o.at }))
      .reverse(),
    penalties: [...s.lightning.breaches]
      .map(([id, b]) => ({
        channel_id: id,
        amount: penaltySats(s.lightning, id, b.claimableSats),
        swept: s.lightning.swept.has(id),
        at: b.at,
      }))
      .reverse(),
    federations: joinedCustodians(s.ecash).map((c) => ({
      federation_id: c.mint,
      federation_name: c.name,
      kind: c.kind,
      welcome_message: c.welcome,
      invite_code: c.invite,
      federation_expiry_timestamp: c.expires_at,
      balance: c.balance,
      popup_countdown_message: c.expires_at === null ? null : c.name,
      popup_end_timestamp: c.expires_at,
      motd: c.motd,
      max_receive: c.max_receive,
      recommended: ownRecommendation(s.nostr, c.mint) !== null,
    })),
    nwc: nwcViewOf(doc, s.nwc, now),
    profile: profileView(s.nostr),
    plus: plusViewOf(s.plus, now, balance.lightning + balance.federation),
  };
};
