/**
 * The onchain feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { onchainHandlers, onchainNeeds } from "./onchain";
import { onchainAttachment } from "./hooks";

export const onchainFeature: Feature = {
  handlers: onchainHandlers,
  needs: onchainNeeds,
  attachment: onchainAttachment,
};
export { createBip21 } from "./onchain";
