/**
 * The nwc feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { nwcHandlers } from "./nwc";
import { nwcOwnerHandlers } from "./owner";
import { nwcAttachment } from "./hooks";

export const nwcFeature: Feature = {
  handlers: { ...nwcHandlers, ...nwcOwnerHandlers },
  needs: { GetNwcUri: "nwc", ApproveNwcInvoice: "lightning" },
  attachment: nwcAttachment,
};
