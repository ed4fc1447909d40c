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
import { lnurlHandlers, lnurlNeeds } from "./lnurl";
import { checkReceived, createReceive } from "./receive";
import { estimateReceiveFee } from "./jit";
import { getReceiveLimits } from "./receive-limits";
import { sendFeedbackCommand } from "./feedback";
import { plusHandlers, plusNeeds } from "./plus";
import { lightningAddressHandlers, lightningAddressNeeds } from "./lightning-address";
import { lspHandlers, lspNeeds } from "./lsp";
import { nostrHandlers, nostrNeeds } from "./nostr";
import { nwcHandlers } from "./nwc";
import { onchainHandlers, onchainNeeds } from "./onchain";
import {
  createWallet,
  markBackedUp,
  restoreWallet,
  setFiat,
  setLabels,
  setSafeMode,
  setZapHodl,
  showSeed,
} from "./wallet";

type HostCommands =
  | "ExportState"
  | "ImportState"
  | "DeleteEverything"
  | "Unlock"
  | "ChangePassword"
  | "StopLightning"
  | "StartLightning"
  | "ResyncOnchain"
  | "GetNwcUri"
  | "ApproveNwcInvoice"
  | "DenyNwcInvoice"
  | "DenyAllNwc";

/**
 * One handler per command; the state-file and password commands run in the host because they replace
 * the log or the sealed secrets.
 */
export const handlers: { readonly [K in Exclude<CommandTag, HostCommands>]?: Handler<K> } = {
  CreateWallet: createWallet,
  RestoreWallet: restoreWallet,
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
  ...lnurlHandlers,
  CreateReceive: createReceive,
  CheckReceived: checkReceived,
  EstimateReceiveFee: estimateReceiveFee,
  GetReceiveLimits: getReceiveLimits,
  ...lspHandlers,
  ...ecashHandlers,
  ...resyncHandlers,
  ...federationsHandlers,
  ...nostrHandlers,
  ...contactsHandlers,
  ...nwcHandlers,
  SendFeedback: sendFeedbackCommand,
  ...plusHandlers,
  ...lightningAddressHandlers,
  ...chatHandlers,
  ...zapsHandlers,
};

/**
 * What each command needs before its handler runs, as each family declares it: the host waits for a
 * starting engine and refuses a command that needs the seed while the wallet is locked.
 */
export const needs: Needs = {
  ShowSeed: "seed",
  ...onchainNeeds,
  ...lightningNeeds,
  ...plusNeeds,
  ...lightningAddressNeeds,
  ...lnurlNeeds,
  ...lspNeeds,
  ...ecashNeeds,
  ...resyncNeeds,
  ...federationsNeeds,
  ...nostrNeeds,
  ...chatNeeds,
  ...zapsNeeds,
  CreateReceive: "lightning",
  EstimateReceiveFee: "lightning",
  GetReceiveLimits: "lightning",
  GetNwcUri: "nwc",
  ApproveNwcInvoice: "lightning",
};
