import type { CommandTag } from "./command";
import type { Handler, Needs } from "./context";
import { getTransaction } from "./activity";
import { ecashHandlers, ecashNeeds } from "./ecash";
import { resyncHandlers, resyncNeeds } from "./resync";
import { federationsHandlers, federationsNeeds } from "./federations";
import { chatHandlers, chatNeeds } from "./chat";
import { contactsHandlers } from "./contacts";
import { zapsHandlers, zapsNeeds } from "./zaps";
import { exportLabels, importLabels } from "./labels";
import { lightningHandlers, lightningNeeds } from "./lightning";
import { channelHandlers, channelNeeds } from "./lightning-channels";
import { channelOpenHandlers, channelOpenNeeds } from "./channel-open";
import { lnurlHandlers, lnurlNeeds } from "./lnurl";
import { checkReceived, createReceive } from "./receive";
import { estimateReceiveFee } from "./jit";
import { getReceiveLimits } from "./receive-limits";
import { sendFeedbackCommand } from "./feedback";
import { plusHandlers, plusNeeds } from "./plus";
import { lightningAddressHandlers, lightningAddressNeeds } from "./lightning-address";
import { lspHandlers, lspNeeds } from "./lsp";
import { lspDelayHandlers, lspDelayNeeds } from "./lsp-delay";
import { nostrHandlers, nostrNeeds } from "./nostr";
import { nostrProfileHandlers, nostrProfileNeeds } from "./nostr-profile";
import { nwcHandlers } from "./nwc";
import { nwcOwnerHandlers } from "./nwc-owner";
import { lifecycleHandlers } from "./lifecycle";
import { onchainHandlers, onchainNeeds } from "./onchain";
import { createWallet, markBackedUp, setFiat, setLabels, setSafeMode, setZapHodl, showSeed } from "./wallet";

/**
 * One handler per command, each family's declared beside it; the wallet-lifecycle commands (unlock,
 * password, export, import, restore, delete) use the host's lifecycle port (`lifecycle-port.ts`).
 */
export const handlers: { readonly [K in CommandTag]?: Handler<K> } = {
  CreateWallet: createWallet,
  ShowSeed: showSeed,
  MarkBackedUp: markBackedUp,
  SetFiat: setFiat,
  SetSafeMode: setSafeMode,
  SetZapHodl: setZapHodl,
  SetLabels: setLabels,
  GetTransaction: getTransaction,
  ExportLabels: exportLabels,
  ImportLabels: importLabels,
  ...onchainHandlers,
  ...lightningHandlers,
  ...channelHandlers,
  ...channelOpenHandlers,
  ...lnurlHandlers,
  CreateReceive: createReceive,
  CheckReceived: checkReceived,
  EstimateReceiveFee: estimateReceiveFee,
  GetReceiveLimits: getReceiveLimits,
  ...lspHandlers,
  ...lspDelayHandlers,
  ...ecashHandlers,
  ...resyncHandlers,
  ...federationsHandlers,
  ...nostrHandlers,
  ...nostrProfileHandlers,
  ...contactsHandlers,
  ...nwcHandlers,
  SendFeedback: sendFeedbackCommand,
  ...plusHandlers,
  ...lightningAddressHandlers,
  ...chatHandlers,
  ...zapsHandlers,
  ...lifecycleHandlers,
  ...nwcOwnerHandlers,
};

/**
 * What each command needs before its handler runs, as each family declares it: the host waits for a
 * starting engine and refuses a command that needs the seed while the wallet is locked.
 */
export const needs: Needs = {
  ShowSeed: "seed",
  ...onchainNeeds,
  ...lightningNeeds,
  ...channelNeeds,
  ...channelOpenNeeds,
  ...plusNeeds,
  ...lightningAddressNeeds,
  ...lnurlNeeds,
  ...lspNeeds,
  ...lspDelayNeeds,
  ...ecashNeeds,
  ...resyncNeeds,
  ...federationsNeeds,
  ...nostrNeeds,
  ...nostrProfileNeeds,
  ...chatNeeds,
  ...zapsNeeds,
  CreateReceive: "lightning",
  EstimateReceiveFee: "lightning",
  GetReceiveLimits: "lightning",
  GetNwcUri: "nwc",
  ApproveNwcInvoice: "lightning",
};
