/**
 * Which queries go to the social-profile search: never a payment string, whole or half typed (an address,
 * an invoice, an lnurl or a URI being typed or pasted is the owner's business, not the search service's).
 */
const PAYMENT_PREFIX =
  /^(?:bitcoin:|lightning:|web\+|lnurl|lnbc|lntb|lntbs|lnbcrt|lnsb|bc1|tb1|bcrt1|keyauth:|nostr\+walletauth|fed1|cashu[AB])/i;
/** Base58 addresses (mixed case with digits, 25+ characters) and long hex strings (node keys, txids). */
const BASE58 = /^[123mn][a-km-zA-HJ-NP-Z1-9]{24,}$/;
const HEX = /^[0-9a-f]{20,}$/i;
const isCode = (q: string) => HEX.test(q) || (BASE58.test(q) && /[A-Z]/.test(q) && /\d/.test(q));

/** Whether `settled` (trimmed) is asked of the profile search; `routes`: it is already a usable payment string. */
export const searchesProfiles = (settled: string, routes: boolean): boolean =>
  settled !== "" && !routes && !PAYMENT_PREFIX.test(settled) && !isCode(settled);
