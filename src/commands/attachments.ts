/**
 * Every engine's attachment to the host (its hooks and what it does around commands), in the order the host
 * calls them. A new engine is its module in `src/engine`, its entry in the worker's engine list, its
 * handlers, and its attachment here: the host itself does not change.
 */
import type { Attach } from "./attached";
import { ecashAttachment } from "./ecash-hooks";
import { lightningAddressAttachment } from "./lightning-address-hooks";
import { lightningAttachment } from "./lightning-hooks";
import { nostrAttachment } from "./nostr-hooks";
import { nwcAttachment } from "./nwc-hooks";
import { onchainAttachment } from "./onchain-hooks";
import { storageAttachment } from "./storage-hooks";

export const attachments: readonly Attach[] = [
  onchainAttachment,
  lightningAttachment,
  ecashAttachment,
  nostrAttachment,
  nwcAttachment,
  lightningAddressAttachment,
  storageAttachment,
];
