/**
 * The ecash feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { ecashHandlers, ecashNeeds } from "./ecash";
import { resyncHandlers, resyncNeeds } from "./resync";
import { federationsHandlers, federationsNeeds } from "./federations";
import { ecashAttachment } from "./hooks";

export const ecashFeature: Feature = {
  handlers: { ...ecashHandlers, ...resyncHandlers, ...federationsHandlers },
  needs: { ...ecashNeeds, ...resyncNeeds, ...federationsNeeds },
  attachment: ecashAttachment,
};
