/**
 * The nostr feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { nostrHandlers, nostrNeeds } from "./nostr";
import { nostrProfileHandlers, nostrProfileNeeds } from "./profile";
import { contactsHandlers } from "./contacts";
import { nostrAttachment } from "./hooks";

export const nostrFeature: Feature = {
  handlers: { ...nostrHandlers, ...nostrProfileHandlers, ...contactsHandlers },
  needs: { ...nostrNeeds, ...nostrProfileNeeds },
  attachment: nostrAttachment,
};
export { npubToHex } from "./contact-form";
export { identityEvents, keyInUse, queued } from "./nostr";
export type { Key } from "./nostr";
export { MESSAGES_WATCH } from "./hooks";
