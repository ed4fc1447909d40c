export {
  BTC_FRACTION_DIGITS,
  btcStringToSats,
  formatSats,
  msatToSatsUp,
  SATS_PER_BTC,
  satsToBtcString,
} from "./btc";
export { fiatToSats, InvalidPrice, parsePrice, satsToFiat, satsToFiatParts } from "./convert";
export { parseDecimal, type ScaledDecimal } from "./decimal";
export { normaliseFiatInput, normaliseSatsInput } from "./normalise";
