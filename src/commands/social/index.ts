/**
 * The social feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { chatHandlers, chatNeeds } from "./chat";
import { zapsHandlers, zapsNeeds } from "./zaps";

export const socialFeature: Feature = {
  handlers: { ...chatHandlers, ...zapsHandlers },
  needs: { ...chatNeeds, ...zapsNeeds },
};
