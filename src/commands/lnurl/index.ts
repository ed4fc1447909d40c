/**
 * The lnurl feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { lnurlHandlers, lnurlNeeds } from "./lnurl";

export const lnurlFeature: Feature = { handlers: lnurlHandlers, needs: lnurlNeeds };
