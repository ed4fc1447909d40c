/**
 * The pure amount maths and currency list the screens format with. Screens import these from here, never
 * from the engine, so the engine's ports stay out of the main thread's reach.
 */
export {
  fiatToSats,
  normaliseFiatInput,
  normaliseSatsInput,
  satsToFiat,
  satsToFiatParts,
} from "../engine/amount";
export { type CurrencyOption, currencyByCode, FIAT_CURRENCIES } from "../engine/price/currencies";
