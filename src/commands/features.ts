/**
 * The wallet's features, each its folder's face (`<feature>/index.ts`), in the order the host calls their
 * attachments. A new engine is its module in `src/engine/<x>/`, its feature folder `src/commands/<x>/`, one
 * line here and one in the worker's engine list.
 */
import { addressFeature } from "./address";
import { ecashFeature } from "./ecash";
import type { Feature } from "./feature";
import { lightningFeature } from "./lightning";
import { lnurlFeature } from "./lnurl";
import { nostrFeature } from "./nostr";
import { nwcFeature } from "./nwc";
import { onchainFeature } from "./onchain";
import { socialFeature } from "./social";
import { storageFeature } from "./storage";
import { walletFeature } from "./wallet";

export const features: readonly Feature[] = [
  walletFeature,
  onchainFeature,
  lightningFeature,
  ecashFeature,
  nostrFeature,
  nwcFeature,
  addressFeature,
  storageFeature,
  lnurlFeature,
  socialFeature,
];
