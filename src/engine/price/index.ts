export { BTC, type CurrencyOption, currencyByCode, DEFAULT_FIAT_CODE, FIAT_CURRENCIES } from "./currencies";
export { PRICE_REQUEST_TIMEOUT_MS, type PriceFeed, type PriceFeedDeps, startPriceFeed } from "./feed";
export {
  BTC_PRICE_IN_BTC,
  fetchPrice,
  type PriceFetch,
  type PriceResult,
  PriceUnavailable,
  priceString,
} from "./fetch";
export {
  initialPriceState,
  MAX_BACKOFF_MULTIPLE,
  nextPriceState,
  PRICE_CHECK_MS,
  type PriceOutcome,
  type PriceState,
} from "./schedule";
export { type PriceSource, type PriceShape, priceSourceFromTemplate, priceUrl } from "./source";
