import type { Network, OnchainKeychain } from "../events/types";
import type { ChannelDetails, LightningDetails, OnchainDetails } from "../projections/activity";
import type { NostrProfile } from "../projections/nostr";
import type { ProfileSearchResult } from "../engine/nostr/search";
import type { ChatPage } from "../projections/chat";
import type { FriendZap } from "../projections/zaps";
import type { ZapPrivacy } from "../engine/nostr/zap-request";
import type { NostrEvent } from "../engine/nostr/event";

export type { ProfileSearchResult };

/** A lightning payment that arrived, or is still on its way ('Payment timed out.'). */
export interface PaymentOutcome {
  readonly status: "succeeded" | "pending";
  readonly paymentHash: string;
  readonly amountSats: bigint;
  readonly feeSats: bigint;
  /** A payment that succeeded: its preimage (the proof of payment) and the exact routing fee. */
  readonly preimage?: string;
  readonly feeMsat?: bigint;
}

export interface PeerRow {
  readonly pubkey: string;
  readonly address: string | null;
  readonly connected: boolean;
}

type Empty = Record<never, never>;

/** An LNURL service's offer as the screens show it (amounts in whole sats). */
export interface LnurlOffer {
  readonly tag: "payRequest" | "withdrawRequest" | "login";
  readonly domain: string;
  readonly minSats: bigint;
  readonly maxSats: bigint;
  /** The pay service's description, or the withdraw service's default one. */
  readonly description: string;
  /** How many characters of comment a pay service takes (0: none). */
  readonly commentAllowed: number;
  /** A login's LUD-04 action (register, login, link, auth), when it names one. */
  readonly action: string | null;
  /**
   * What identifies the offer the owner saw (the service's final host and its metadata's sha256, hex): a
   * payment is made only to an offer that still reads the same.
   */
  readonly fingerprint: string;
  /** The pay service takes NIP-57 zap requests (the send screen's privacy control is offered). */
  readonly allowsNostr: boolean;
}

/** LUD-09 and LUD-10 success actions the wallet shows after paying (an `aes` one opens once paid). */
export type LnurlSuccessAction =
  | { readonly tag: "message"; readonly message: string }
  | { readonly tag: "url"; readonly description: string; readonly url: string }
  | { readonly tag: "aes"; readonly description: string; readonly ciphertext: string; readonly iv: string };

/** What the owner agreed to pay in on-chain fees (see `src/engine/onchain/fee-rules.ts`). */
type FeeConsentInput = { maxFeeSats?: bigint; highFeeConfirmed?: boolean };

/**
 * The closed union of commands the screens may send to the worker, with what each answers.
 * Add a command: one entry here, one handler in the family's file, one line in `handlers.ts`.
 */

export interface CommandSpecs {
  CreateWallet: { input: Empty; output: { walletId: string } };
  /** `replace`: the owner confirmed that the wallet on this device gives way to the restored one. */
  RestoreWallet: { input: { words: string[]; replace?: boolean }; output: { walletId: string } };
  ShowSeed: { input: Empty; output: { words: string[] } };
  MarkBackedUp: { input: Empty; output: null };
  SetFiat: { input: { code: string }; output: null };
  SetSafeMode: { input: { enabled: boolean }; output: null };
  /** Opens the wallet's secrets with its password; 'Incorrect password entered.' when it does not fit. */
  Unlock: { input: { password: string }; output: null };
  /** Sets, changes or (blank `password`) removes the password; blank `existing` means none is set. */
  ChangePassword: {
    input: { existing: string; password: string; confirm: string };
    output: { hasPassword: boolean };
  };
  ExportState: { input: { password: string }; output: { json: string; fileName: string } };
  ImportState: { input: { text: string; password?: string }; output: { imported: number } };
  DeleteEverything: { input: Empty; output: null };
  SetLabels: { input: { itemId: string; labels: string[] }; output: null };
  GetTransaction: { input: { txid: string }; output: OnchainDetails | null };
  ExportLabels: { input: Empty; output: { jsonl: string; fileName: string } };
  ImportLabels: { input: { text: string }; output: { imported: number; badLines: number[] } };

  GetNewAddress: {
    input: { labels: string[] };
    output: { address: string; index: number; keychain: OnchainKeychain };
  };
  CheckAddress: { input: { address: string }; output: { network: Network } };
  CreateBip21: {
    input: { amountSats: bigint | null; labels: string[] };
    output: { uri: string; address: string };
  };
  /** `highFee`: the fee needs the owner's second confirmation before a send may pay it. */
  EstimateTxFee: {
    input: { address: string; amountSats: bigint };
    output: { feeSats: bigint; highFee: boolean };
  };
  /**
   * `maxFeeSats` is the fee the owner was shown: a send that would now cost more is refused. A high fee is
   * paid only with `highFeeConfirmed`, the owner's second confirmation.
   */
  /**
   * Paying the same address the same amount again within `REPEAT_WINDOW_MS` is refused with
   * RepeatNeedsConfirmation unless `repeatConfirmed`: the owner confirmed paying it a second time.
   */
  SendToAddress: {
    input: FeeConsentInput & {
      address: string;
      amountSats: bigint;
      labels: string[];
      repeatConfirmed?: boolean;
    };
    output: { txid: string; feeSats: bigint };
  };
  EstimateSweepTxFee: {
    input: { address: string };
    output: { feeSats: bigint; amountSats: bigint; highFee: boolean };
  };
  SweepWallet: {
    input: FeeConsentInput & { address: string; labels: string[] };
    output: { txid: string; feeSats: bigint; amountSats: bigint };
  };
  SyncOnchain: { input: Empty; output: null };

  /** An invoice for `amountSats` (null: the payer chooses). */
  CreateInvoice: {
    /** `descriptionHash` (sha256, hex): the invoice commits to it instead of `description`, kept as its text. */
    input: { amountSats: bigint | null; labels: string[]; description?: string; descriptionHash?: string };
    output: { bolt11: string; paymentHash: string; expiresAt: number };
  };
  GetInvoice: {
    input: { paymentHash: string };
    output: { paid: boolean; amountSats: bigint | null; expired: boolean } | null;
  };
  /** The most routing may cost for `amountSats`, shown before sending. */
  EstimateLightningFee: { input: { amountSats: bigint }; output: { maxFeeSats: bigint } };
  /** Pays a bolt11 invoice; `amountSats` only for an invoice without an amount. */
  /**
   * `amountSats` is the amount the owner confirmed: a payment of any other amount is refused.
   * `maxFeeSats` lowers the routing fee limit (never raises it): a wallet-connect budget's room.
   */
  PayInvoice: {
    input: { bolt11: string; amountSats: bigint; labels?: string[]; maxFeeSats?: bigint };
    output: PaymentOutcome;
  };
  Keysend: {
    input: { pubkey: string; amountSats: bigint; labels?: string[]; maxFeeSats?: bigint };
    output: PaymentOutcome;
  };
  GetLightningPayment: { input: { id: string }; output: LightningDetails | null };
  GetChannelEvent: { input: { id: string }; output: ChannelDetails | null };
  ListPeers: { input: Empty; output: PeerRow[] };
  /** `address`: `pubkey@host:port`. */
  ConnectPeer: { input: { address: string }; output: null };
  DisconnectPeer: { input: { pubkey: string }; output: null };
  DeletePeer: { input: { pubkey: string }; output: null };
  /**
   * Opens a channel from on-chain funds to `peer` (`pubkey@host:port`), or to the LSP when absent. An
   * amount equal to the whole on-chain balance sweeps it all into the channel (its fee comes out of it).
   */
  OpenChannel: {
    input: { peer?: string; amountSats: bigint };
    output: { channelId: string; amountSats: bigint };
  };
  /** Moves the whole on-chain balance into a new channel. */
  SweepAllToChannel: { input: { peer?: string }; output: { channelId: string; amountSats: bigint } };
  /**
   * What opening a channel of `amountSats` (null, or the whole on-chain balance: everything, a sweep)
   * costs on-chain, and what the channel would hold.
   */
  EstimateChannelOpenFee: {
    input: { amountSats: bigint | null };
    output: { feeSats: bigint; amountSats: bigint; sweep: boolean };
  };
  CloseChannel: { input: { channelId: string; force?: boolean; abandon?: boolean }; output: null };
  GetLogs: { input: Empty; output: { lines: string[] } };
  SetZapHodl: { input: { enabled: boolean }; output: null };
  /** Stops the lightning node (admin page); the wallet keeps running without it. */
  StopLightning: { input: Empty; output: null };
  StartLightning: { input: Empty; output: null };
  /** Forgets what the on-chain scan remembered and looks at every address again (reset_onchain_tracker). */
  ResyncOnchain: { input: Empty; output: null };

  /**
   * A receive request: unified (BIP21 with the address and, when lightning runs, an invoice), on-chain
   * only, or a lightning invoice only.
   */
  CreateReceive: {
    input: { amountSats: bigint | null; labels: string[]; flavor: "unified" | "lightning" | "onchain" };
    output: { uri: string; address: string | null; invoice: string | null; paymentHash: string | null };
  };
  /** The channel setup fee the LSP asks for a lightning receive of `amountSats` (0 when none is needed). */
  EstimateReceiveFee: { input: { amountSats: bigint }; output: { feeSats: bigint; needsChannel: boolean } };
  /**
   * A lightning receive's bounds as the LSP states them: the smallest payment it opens a channel for, and
   * the most a receive can ask now (the channels' room or the LSP's most); null where it says nothing.
   */
  GetReceiveLimits: { input: Empty; output: { channelMinSats: bigint | null; maxSats: bigint | null } };
  /**
   * Whether the request's invoice or address was paid; polled by the receive screen. `refused`: a payment
   * came but went back to its payer, because the LSP kept more of it than the fee it promised.
   */
  CheckReceived: {
    input: { address: string | null; paymentHash: string | null };
    output: {
      paid: "lightning_paid" | "onchain_paid" | null;
      amountSats: bigint;
      refused?: { readonly keptSats: bigint; readonly promisedSats: bigint };
    };
  };
  /**
   * Switches the lightning service (change_lsp): an HTTP LSP, or an LSPS2 connection string with its
   * token (empty strings for the other); 'Failed to make a request to the LSP.' when it does not answer.
   */
  ChangeLsp: { input: { lsp: string; connectionString: string; token: string }; output: null };
  /**
   * The owner accepts the shorter safety delay (`blocks`) the LSP whose node is `lsp` allows: recorded, and
   * the node starts again asking it of that LSP (channels opened before keep theirs).
   */
  AcceptLspDelay: { input: { lsp: string; blocks: number }; output: null };
  /** The lightning service in use (get_configured_lsp); empty strings for what is not set. */
  GetConfiguredLsp: { input: Empty; output: { lsp: string; connectionString: string; token: string } };
  DecodeLnurl: { input: { lnurl: string }; output: LnurlOffer };
  /**
   * Asks a pay service for an invoice of `amountSats` and checks it; the screen then pays it. `fingerprint`
   * is the confirmed offer's: a service that now reads differently is refused.
   */
  LnurlPayInvoice: {
    /**
     * `zap`: a zap to the contact (NIP-57), when the service allows nostr: public by default, private (the
     * request encrypted to the contact) or anonymous (a throwaway key).
     */
    input: {
      lnurl: string;
      amountSats: bigint;
      comment: string;
      fingerprint: string;
      zap?: { contactId: string; privacy?: ZapPrivacy } | null;
    };
    /** `zapRequest`: the signed zap request (JSON) the invoice commits to, when it is a zap. */
    output: { bolt11: string; successAction: LnurlSuccessAction | null; zapRequest: string | null };
  };
  /** Opens a LUD-10 `aes` success action with the preimage of the paid invoice `paymentHash`. */
  OpenSuccessAction: {
    input: { paymentHash: string; ciphertext: string; iv: string };
    output: { message: string };
  };
  /** The npub in use (get_npub): the seed's (NIP-06) or an imported one. */
  GetNpub: { input: Empty; output: { npub: string; imported: boolean } };
  /** The nsec in use (export_nsec), for the nostr keys screen only. */
  ExportNsec: { input: Empty; output: { nsec: string } };
  /** Uses an imported nsec (change_nostr_keys), sealed like the seed; 'Invalid nsec' otherwise. */
  ImportNsec: {
    input: { nsec: string };
    output: {
      npub: string;
      profileFound: boolean;
      /** The people its follow list follows, as contacts the worker creates next (followed). */
      contacts: { name: string; npub: string; ln_address: string; image_url: string }[];
    };
  };
  /** Publishes the follow list (kind 3) with hex keys followed or unfollowed; other entries stay. */
  PublishFollows: { input: { follow: string[]; unfollow: string[] }; output: null };
  /** Forgets an imported nsec: the seed's key is in use again. */
  UnlinkNostrKey: { input: Empty; output: { npub: string } };
  /** setup_new_profile(name, image). */
  SetupNewProfile: { input: { name: string; imageUrl: string | null }; output: null };
  /** edit_nostr_profile(nym, image, lightning address); the existing nip05 is kept. */
  EditNostrProfile: {
    input: { nym: string; imageUrl: string | null; lightningAddress: string };
    output: null;
  };
  /** delete_profile: publishes a profile marked deleted. */
  DeleteProfile: { input: Empty; output: null };
  /** upload_profile_pic: the picture's bytes and type; answers its URL on the media server. */
  UploadProfilePic: { input: { bytes: Uint8Array; type: string }; output: { url: string } };
  /** A picture (avatar) read by the worker within bounds, shown from a blob: URL. */
  GetPicture: { input: { url: string }; output: { bytes: Uint8Array; type: string } };
  /** get_nostr_profile: the owner's profile, or the one of `npub`; null when none is published. */
  GetNostrProfile: { input: { npub?: string }; output: NostrProfile | null };
  LnurlWithdraw: {
    input: { lnurl: string; amountSats: bigint; fingerprint: string };
    output: { amountSats: bigint; paymentHash: string };
  };
  LnurlAuth: { input: { lnurl: string }; output: { domain: string } };

  /**
   * create_new_contact, with the contact form's rules (src/commands/nostr/contact-form.ts). `fromProfile`: a
   * profile chosen in search (npub required, lightning address optional); one already kept is answered
   * with `existing`.
   */
  CreateContact: {
    input: ContactInput & { fromProfile?: boolean };
    output: { id: string; existing: boolean };
  };
  /**
   * The people an imported follow list follows, brought in at once as followed contacts (one change of
   * the owner's document for all of them). Those already kept (by npub) are followed; invalid ones skipped.
   */
  ImportContacts: {
    input: { contacts: { name: string; npub: string; ln_address: string; image_url: string }[] };
    output: { created: number; followed: number };
  };
  /** edit_contact; lnurl and image stay as they are when absent. 'Contact not found' when gone. */
  EditContact: { input: ContactInput & { id: string }; output: null };
  DeleteContact: { input: { id: string }; output: null };
  /** follow_npub / unfollow_npub: the contact must have an npub ("Contact doesn't have a npub"). */
  SetFollowed: { input: { id: string; followed: boolean }; output: null };
  /** send_dm: a private message to the contact (NIP-17), queued until a relay takes it. */
  SendMessage: { input: { contactId: string; text: string }; output: { id: string } };
  /** Reads new private messages from the relays (the chat's refresh). */
  /** `waiting`: unread events left on the relays past what one read opens; the next read takes them. */
  SyncMessages: { input: Empty; output: { received: number; waiting: number } };
  /** Keeps the relays' new private messages coming in live while a chat is open (the refresh is the fallback). */
  WatchMessages: { input: Empty; output: null };
  /** Records the private messages the live subscription brought (relay events, each checked again). */
  ReceiveMessages: {
    input: { events: readonly NostrEvent[] };
    output: { received: number; waiting: number };
  };
  /** The chat with a contact: its newest `limit` (20) entries of payments and messages. */
  GetChat: { input: { contactId: string; limit?: number }; output: ChatPage };
  /** The friends tab: zaps among the people the owner follows, 100 a page, older ones before `until`. */
  GetFriendZaps: { input: { until?: number | null }; output: { zaps: FriendZap[]; until: number | null } };
  /** Reads the receipts of the wallet's zaps from the relays; a zap shows as such once its receipt matched. */
  CheckZaps: { input: Empty; output: { confirmed: number } };
  /** Global search of social profiles through the cache service (trimmed, at most 10). */
  SearchProfiles: { input: { query: string }; output: ProfileSearchResult[] };
  /**
   * A wallet-connect connection (create_nwc_profile / create_budget_nwc_profile): `budgetSats` a period
   * (`period` 0-3: Day, Week, Month, Year) the app may pay without asking, unless `requireApproval`.
   */
  CreateNwcProfile: {
    input: { name: string; budgetSats: bigint; period: number; requireApproval: boolean };
    output: { index: number };
  };
  /** Edits a connection; its name stays as it was, and a fixed budget too. */
  EditNwcProfile: {
    input: { index: number; budgetSats: bigint; period: number; requireApproval: boolean; enabled: boolean };
    output: null;
  };
  DeleteNwcProfile: { input: { index: number }; output: null };
  /** The `nostr+walletconnect://` URI an app is given for connection `index` (needs the running service). */
  GetNwcUri: { input: { index: number }; output: { uri: string } };
  /** What an authorization request (`nostr+walletauth://`) asks: its app's name and fixed budget, if any. */
  ReadWalletAuth: {
    input: { nwa: string };
    output: { name: string | null; budgetSats: bigint | null; period: number | null; methods: string[] };
  };
  /** approve_nostr_wallet_auth: creates the connection the app asked for; the app is told on the relay. */
  ApproveWalletAuth: {
    input: { name: string; nwa: string; budgetSats: bigint; period: number; requireApproval: boolean };
    output: { index: number };
  };
  /** Approves a payment waiting in the requests tab; answers once it is paid (or failed). */
  ApproveNwcInvoice: { input: { id: string }; output: { paid: boolean } };
  DenyNwcInvoice: { input: { id: string }; output: null };
  DenyAllNwc: { input: Empty; output: { denied: number } };

  /**
   * Sends the feedback form to the feedback service at `host`; with `includeLogs` the node's logs go too,
   * every secret the wallet holds cut out of them first.
   */
  SendFeedback: {
    input: {
      host: string;
      userType: "nostr" | "email";
      id: string;
      feedback: string;
      includeLogs: boolean;
      images: readonly { name: string; type: string; bytes: Uint8Array }[];
    };
    output: null;
  };

  /** The membership service's plans and this wallet's subscription (timestamp in seconds; active: spec 1). */
  GetPlus: {
    input: { host: string };
    output: {
      plans: { id: number; amountSats: bigint }[];
      planId: number | null;
      timestamp: number | null;
      active: boolean;
      balanceSats: bigint;
    };
  };
  /**
   * Makes the subscription connection (wallet-connect index 0, the plan's price per month, fixed) for plan
   * `planId`; refused unless lightning plus federation balance is above the price.
   */
  PreparePlus: { input: { host: string; planId: number }; output: { index: number; amountSats: bigint } };
  /** Gives the service the connection's URI; answers its invoice for the plan's price (checked). */
  SubscribePlus: {
    input: { host: string; planId: number; nwc: string };
    output: { bolt11: string; amountSats: bigint };
  };

  /**
   * The name this wallet holds at the lightning-address service ('Hermes not configured' when unset), and
   * the mint that receives for it while the wallet is closed.
   */
  GetLightningAddress: {
    input: { host: string };
    output: { name: string | null; address: string | null; mint: string | null };
  };
  /** check_available_lnurl_name: the name's rules, then whether it is free. */
  CheckLnName: { input: { host: string; name: string }; output: { available: boolean } };
  /**
   * reserve_lnurl_name (members only): 'Name already taken' when it is someone else's. `mint` (a Cashu mint
   * the owner joined) receives payments while the wallet is closed; reserving the same name again changes it.
   */
  ReserveLnName: { input: { host: string; name: string; mint?: string | null }; output: { address: string } };
  /**
   * Redeems the tokens the lightning-address service sent while the wallet was closed (NIP-17 messages from
   * the service); each message is redeemed once.
   */
  RedeemAddressTokens: { input: Empty; output: { redeemed: number; amountSats: bigint } };

  /**
   * Starts a resync of one custodian (safe mode only): a Cashu mint restores from the seed (NUT-09), a
   * Fedimint federation runs its client's recovery; polled with FederationResyncProgress.
   */
  ResyncFederation: { input: { federationId: string }; output: null };
  /** How far the custodian's resync got: null until it started (spec 2: polled each second). */
  FederationResyncProgress: {
    input: { federationId: string };
    output: {
      total: number;
      complete: number;
      done: boolean;
      recoveredSats: bigint;
      error: string | null;
    } | null;
  };

  /**
   * Joins an ecash custodian: a Cashu mint by its URL, or a Fedimint federation by its invite code.
   * 'Federation code required', already_in_fed, 'Failed to connect to a federation.', 'Invalid Arguments
   * were given'.
   */
  JoinFederation: { input: { code: string }; output: { federationId: string; name: string } };
  /** Removes a custodian that holds nothing for the wallet. */
  RemoveFederation: { input: { federationId: string }; output: null };
  /** An invoice of the custodian that becomes ecash there once paid (CheckEcash mints it). */
  ReceiveEcash: {
    input: { federationId: string; amountSats: bigint };
    output: { bolt11: string; paymentHash: string; expiresAt: number | null };
  };
  /** Mints what was paid of the receive invoices (of one custodian, or all); polled by the screens. */
  CheckEcash: { input: { federationId?: string }; output: { receivedSats: bigint } };
  /** What paying `bolt11` from ecash at a custodian costs, shown before paying. */
  EcashMeltQuote: {
    input: { federationId: string; bolt11: string };
    output: EcashPaymentPreview;
  };
  /** Pays the quote the owner saw: refused when the amount differs or the fee grew. */
  PayInvoiceFromEcash: {
    input: { federationId: string; quoteId: string; amountSats: bigint; feeSats: bigint };
    output: EcashPaymentOutcome;
  };
  SendEcashToken: { input: { federationId: string; amountSats: bigint }; output: { token: string } };
  ReceiveEcashToken: { input: { token: string }; output: { federationId: string; amountSats: bigint } };
  /**
   * What moving ecash between two custodians costs, shown before it moves: the destination's invoice and the
   * source's quote to pay it ('No from/to federation'); the full source balance sweeps it.
   */
  QuoteEcashTransfer: {
    input: { from: string; to: string; amountSats: bigint };
    output: EcashPaymentPreview;
  };
  /** Pays the transfer quote the owner saw: refused when the amount differs or the fee grew. */
  TransferEcash: {
    input: { from: string; to: string; quoteId: string; amountSats: bigint; feeSats: bigint };
    output: EcashPaymentOutcome;
  };
  /** ecash → the wallet's own lightning: an invoice of the node and what paying it from ecash costs. */
  PrepareSwapToLightning: {
    input: { federationId: string; amountSats: bigint };
    output: EcashPaymentPreview;
  };
  /** Looks for what the seed holds at the joined mints (NUT-09/13); names what it could not restore. */
  RestoreEcash: {
    input: { federationId?: string };
    output: { recoveredSats: bigint; notRestored: string[] };
  };
  /**
   * How far the RestoreEcash running now got, polled by its screen: the mint, the keysets begun of its
   * keysets, the unspent proofs found (each once), and counters asked of all to ask; null when none runs.
   */
  EcashRestoreProgress: {
    input: Empty;
    output: {
      mint: string;
      keyset: number;
      keysets: number;
      proofs: number;
      complete: number;
      total: number;
    } | null;
  };
  /**
   * recommend_federation: publishes the owner's NIP-87 recommendation (kind 38000) of a joined custodian to
   * the wallet's relays, or (`recommend` false, delete_federation_recommendation) withdraws it.
   */
  RecommendFederation: { input: { federationId: string; recommend: boolean }; output: null };
  /**
   * Reads each joined mint's info again (name, welcome message, message of the day, end date, most it
   * mints at once) and records what changed; run when the wallet opens and on a schedule.
   */
  RefreshEcashInfo: { input: Empty; output: { changed: number } };
}

export interface EcashPaymentPreview {
  readonly quoteId: string;
  readonly bolt11: string;
  readonly amountSats: bigint;
  readonly feeSats: bigint;
  /** A swap to lightning that needs a new channel: the LSP's setup fee, taken from what arrives. */
  readonly channelFeeSats?: bigint;
}

export interface EcashPaymentOutcome {
  readonly status: "paid" | "pending";
  readonly amountSats: bigint;
  readonly feeSats: bigint;
}

/** The contact form's fields (spec 2 §5), plus what a profile brings. */
type ContactInput = {
  name: string;
  npub: string;
  ln_address: string;
  lnurl?: string;
  image_url?: string;
};

export type CommandTag = keyof CommandSpecs;
export type Command = { [K in CommandTag]: { _tag: K } & CommandSpecs[K]["input"] }[CommandTag];
export type CommandOf<K extends CommandTag> = Extract<Command, { _tag: K }>;
export type ResultOf<K extends CommandTag> = CommandSpecs[K]["output"];
