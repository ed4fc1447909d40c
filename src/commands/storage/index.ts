/**
 * The storage feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { storageAttachment } from "./hooks";

export const storageFeature: Feature = { handlers: {}, attachment: storageAttachment };
export { logInStep } from "./log-sync";
export { NOTHING_WAITS, setStorageWaiting } from "./waiting";
