/** LNURL: pay (LUD-06, LUD-16), withdraw (LUD-03) and auth (LUD-04 with LUD-05 keys), as a client. */
export {
  actionOf,
  type AuthAction,
  linkingKey,
  linkingPathSuffix,
  signChallenge,
  verifyChallenge,
} from "./auth";
export {
  type Fetch,
  fetchParams,
  fingerprintOf,
  fixedPayAmountSats,
  LnurlError,
  type LnurlParams,
  login,
  metadataText,
  type PayInvoiceAnswer,
  payRangeSats,
  requestPayInvoice,
  submitWithdraw,
  type SuccessAction,
  withdrawRangeSats,
} from "./client";
export { type AesSuccessAction, openAesSuccessAction } from "./success-action";
