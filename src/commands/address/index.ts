/**
 * The address feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { plusHandlers, plusNeeds } from "./plus";
import { lightningAddressHandlers, lightningAddressNeeds } from "./lightning-address";
import { lightningAddressAttachment } from "./lightning-address-hooks";

export const addressFeature: Feature = {
  handlers: { ...plusHandlers, ...lightningAddressHandlers },
  needs: { ...plusNeeds, ...lightningAddressNeeds },
  attachment: lightningAddressAttachment,
};
