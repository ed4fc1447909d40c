/**
 * The wallet feature's face to the host and to the other features: what it handles, what each command
 * needs, its attachment, and the few parts another feature uses. Nothing else of this folder is imported
 * from outside it (`npm run deps` checks).
 */
import type { Feature } from "../feature";
import { createWallet, showSeed, markBackedUp, setFiat, setSafeMode, setZapHodl, setLabels } from "./wallet";
import { getTransaction } from "./activity";
import { exportLabels, importLabels } from "./labels";
import { sendFeedbackCommand } from "./feedback";
import { lifecycleHandlers } from "./lifecycle";

export const walletFeature: Feature = {
  handlers: {
    CreateWallet: createWallet,
    ShowSeed: showSeed,
    MarkBackedUp: markBackedUp,
    SetFiat: setFiat,
    SetSafeMode: setSafeMode,
    SetZapHodl: setZapHodl,
    SetLabels: setLabels,
    GetTransaction: getTransaction,
    ExportLabels: exportLabels,
    ImportLabels: importLabels,
    SendFeedback: sendFeedbackCommand,
    ...lifecycleHandlers,
  },
  needs: { ShowSeed: "seed" },
};
export { lockedError } from "./at-rest";
export { withLifecycle } from "./lifecycle";
export { Secrets } from "./secrets";
export { stateCipher } from "./state-cipher";
export { readStateHeader, validateContents } from "./state-file";
export type { StateCipher } from "./state-file";
export { docChange } from "./wallet";
