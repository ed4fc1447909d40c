import type { Language } from "../i18n/languages";

/** The welcome screen of one language as the app draws it, and its button's text while a wallet is made. */
export interface WelcomeScreen {
  readonly html: string;
  readonly creating: string;
}
export type WelcomeScreens = Partial<Record<Language, WelcomeScreen>>;

/** Where the welcome screen is what the app shows a browser with no wallet. */
const WELCOME_PATHS = ["/", "/setup"];
/** Set on the root when "New wallet" was pressed before the app's code arrived. */
const PRESSED = "newWalletPressed";

/**
 * Draws the welcome screen before the app's code has arrived, for a browser that has never said it holds a
 * wallet (the flag the worker keeps; "unknown" is a first visit), so a newcomer can read it and press "New
 * wallet" at once. A press is kept for the app, which makes the wallet as soon as it starts; until then the
 * button shows that it is working. The app draws the same screen over it, so nothing moves. Answers
 * whether it drew.
 */
export const paintWelcome = (
  screens: WelcomeScreens,
  page: { readonly root: HTMLElement | null; readonly path: string; readonly search: string },
  walletFlag: string | null,
  lang: Language,
  /** Told of the press at once, to hurry the app and what the press leads to. */
  onPress: () => void,
): boolean => {
  const { root } = page;
  const screen = screens[lang];
  if (!root || root.firstChild || !screen || walletFlag === "1") return false;
  if (!WELCOME_PATHS.includes(page.path) || new URLSearchParams(page.search).has("skip_setup")) return false;
  root.innerHTML = screen.html;
  const button = root.querySelector<HTMLButtonElement>("main button");
  button?.addEventListener(
    "click",
    () => {
      root.dataset[PRESSED] = "1";
      button.disabled = true;
      button.textContent = screen.creating;
      onPress();
    },
    { once: true },
  );
  return true;
};

/** Whether "New wallet" was pressed on the screen drawn before the app started; answers true once. */
export const takeEarlyPress = (root = globalThis.document?.getElementById("root")): boolean => {
  if (root?.dataset[PRESSED] !== "1") return false;
  delete root.dataset[PRESSED];
  return true;
};

/** Whether "New wallet" was pressed before the app started and the app has not acted on it yet. */
export const earlyPressWaiting = (root = globalThis.document?.getElementById("root")): boolean =>
  root?.dataset[PRESSED] === "1";
