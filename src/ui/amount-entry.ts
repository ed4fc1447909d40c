/**
 * The decisions of the amount entry control (spec 1 §2, §5, §9), kept apart from the component: what each
 * input keeps, what the other shows, which input is live, the method cycle, keyboard detection and Enter.
 */
import { MAX_MONEY_SATS } from "../money";
import { fiatToSats, normaliseFiatInput, normaliseSatsInput, satsToFiat } from "./money";

export type AmountMode = "sats" | "fiat";

/** The keyboard counts as shown when the visual viewport is under this share of the screen's height. */
export const KEYBOARD_THRESHOLD = 0.75;

export interface PaymentMethod {
  readonly method: "lightning" | "onchain" | "ecash";
  /** The most it takes, as someone who knows said it (balance, LSP, mint); null when nobody said. */
  readonly maxAmountSats: bigint | null;
  /** An ecash method: the custodian the sats go to or come from (its id and name; custody is shown). */
  readonly custodian?: { readonly id: string; readonly name: string };
}

/** What tells methods apart: the method, and for ecash its custodian (two mints are two methods). */
export const methodKey = (m: PaymentMethod): string =>
  m.custodian ? `${m.method}:${m.custodian.id}` : m.method;

/** The key of the method after `current` in the cycle (the first when `current` is not offered). */
export const nextMethodKey = (methods: readonly PaymentMethod[], current: string): string => {
  if (methods.length === 0) return current;
  const at = methods.findIndex((m) => methodKey(m) === current);
  const next = methods[(at + 1) % methods.length];
  return next ? methodKey(next) : current;
};

export interface AmountEntryState {
  readonly mode: AmountMode;
  /** The sats input's text: digits only. */
  readonly sats: string;
  /** The fiat input's text: digits and at most one point. */
  readonly fiat: string;
}

/** The price and currency the fiat input converts at; null while no price is known. */
export interface FiatRate {
  readonly price: string;
  readonly digits: number;
}

export const initialAmountEntry = (sats: bigint | null, rate: FiatRate | null): AmountEntryState => ({
  mode: "sats",
  sats: sats === null || sats === 0n ? "" : sats.toString(),
  fiat: sats === null || sats === 0n || rate === null ? "" : satsToFiat(sats, rate.price, rate.digits),
});

/** Sats as the field keeps them: never more than the 21 million bitcoin that can exist. */
const withinMoney = (digits: string): string =>
  digits !== "" && (digits.length > 16 || BigInt(digits) > MAX_MONEY_SATS)
    ? MAX_MONEY_SATS.toString()
    : digits;

/** The owner typed in the sats input: it keeps digits only; the fiat input follows. */
export const typeSats = (s: AmountEntryState, raw: string, rate: FiatRate | null): AmountEntryState => {
  const sats = withinMoney(normaliseSatsInput(raw));
  return {
    ...s,
    sats,
    fiat: sats === "" || rate === null ? "" : satsToFiat(BigInt(sats), rate.price, rate.digits),
  };
};

/** The owner typed in the fiat input: it keeps digits and one point, cut to the currency's digits. */
export const typeFiat = (s: AmountEntryState, raw: string, rate: FiatRate | null): AmountEntryState => {
  if (rate === null) return s;
  const fiat = normaliseFiatInput(raw, rate.digits);
  // The sats field never holds more than can exist: a fiat amount worth more is read as 21 million BTC.
  const sats = fiat === "" ? "" : withinMoney(fiatToSats(fiat, rate.price, rate.digits).toString());
  return { ...s, fiat, sats: sats === "0" && fiat === "" ? "" : sats };
};

/**
 * The price or the currency changed (a new quote, the owner's choice, the feed falling back to BTC): the
 * sats amount stands and the fiat input shows it at the new rate; with no rate, sats is the live input.
 */
export const followRate = (s: AmountEntryState, rate: FiatRate | null): AmountEntryState => ({
  mode: rate === null ? "sats" : s.mode,
  sats: s.sats,
  fiat: s.sats === "" || rate === null ? "" : satsToFiat(BigInt(s.sats), rate.price, rate.digits),
});

/** The toggle: the other input becomes the live one. Fiat needs a price. */
export const toggleMode = (s: AmountEntryState, rate: FiatRate | null): AmountEntryState =>
  s.mode === "sats" && rate !== null ? { ...s, mode: "fiat" } : { ...s, mode: "sats" };

/** Which input is disabled: the one not in use, and both when the amount is frozen. */
export const disabledInputs = (mode: AmountMode, frozen: boolean, rate: FiatRate | null) => ({
  sats: frozen || mode !== "sats",
  fiat: frozen || mode !== "fiat" || rate === null,
});

export const amountSatsOf = (s: AmountEntryState): bigint => (s.sats === "" ? 0n : BigInt(s.sats));

/** The next method of the cycle; the button is disabled when there is only one. */
export const nextMethod = (
  methods: readonly PaymentMethod[],
  current: PaymentMethod["method"],
): PaymentMethod["method"] => {
  if (methods.length === 0) return current;
  const at = methods.findIndex((m) => m.method === current);
  return methods[(at + 1) % methods.length]?.method ?? current;
};

export const canCycleMethods = (methods: readonly PaymentMethod[]): boolean => methods.length > 1;

/** Whether the on-screen keyboard is up: viewport height times scale under 0.75 of the screen height. */
export const keyboardShown = (viewportHeight: number, scale: number, screenHeight: number): boolean =>
  screenHeight > 0 && viewportHeight * scale < KEYBOARD_THRESHOLD * screenHeight;

/** Enter runs the submit callback when there is one, else it only unfocuses the input. */
export const enterAction = (hasSubmit: boolean): "submit" | "blur" => (hasSubmit ? "submit" : "blur");
