/**
 * The lightning feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { lightningHandlers, lightningNeeds } from "./lightning";
import { channelHandlers, channelNeeds } from "./channels";
import { channelOpenHandlers, channelOpenNeeds } from "./channel-open";
import { createReceive, checkReceived } from "./receive";
import { estimateReceiveFee } from "./jit";
import { getReceiveLimits } from "./receive-limits";
import { lspHandlers, lspNeeds } from "./lsp";
import { lspDelayHandlers, lspDelayNeeds } from "./lsp-delay";
import { lightningAttachment } from "./hooks";

export const lightningFeature: Feature = {
  handlers: {
    ...lightningHandlers,
    ...channelHandlers,
    ...channelOpenHandlers,
    CreateReceive: createReceive,
    CheckReceived: checkReceived,
    EstimateReceiveFee: estimateReceiveFee,
    GetReceiveLimits: getReceiveLimits,
    ...lspHandlers,
    ...lspDelayHandlers,
  },
  needs: {
    ...lightningNeeds,
    ...channelNeeds,
    ...channelOpenNeeds,
    ...lspNeeds,
    ...lspDelayNeeds,
    CreateReceive: "lightning",
    EstimateReceiveFee: "lightning",
    GetReceiveLimits: "lightning",
  },
  attachment: lightningAttachment,
};
export { whenChannelsBack } from "./hooks";
export { jitInvoice } from "./jit";
export { createInvoice, isStartedPayment, newInvoice, nodeOf } from "./lightning";
