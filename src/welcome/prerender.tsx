/**
 * The welcome screen drawn at build time by the app's own components (`virtual:welcome-screens` in
 * vite.config.ts), for `main.tsx` to show before the app's code arrives.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { Router } from "wouter";
import { App } from "../App";
import { WalletClient } from "../commands/client";
import { resolveConfig } from "../config";
import { I18nProvider, loadMessages } from "../i18n/intl";
import { LANGUAGES, type Language } from "../i18n/languages";
import { ToastProvider } from "../ui/toast";
import type { WelcomeScreen, WelcomeScreens } from "./first-paint";

const noStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

/** The welcome screen as the app draws it for a browser with no wallet, in one language. */
const renderWelcome = async (lang: Language): Promise<WelcomeScreen> => {
  const messages = await loadMessages(lang);
  const html = renderToStaticMarkup(
    <I18nProvider initial={{ lang, messages }}>
      <ToastProvider>
        <Router ssrPath="/setup">
          <App
            client={new WalletClient()}
            config={resolveConfig(noStorage, { network: "regtest" })}
            noWallet
          />
        </Router>
      </ToastProvider>
    </I18nProvider>,
  );
  // A screen that failed to draw (its boundary's placeholder instead) must not reach a newcomer.
  const button = `>${messages["setup.new_wallet"]}</button>`;
  if (!html.includes('<main class="screen center setup">') || !html.includes(button))
    throw new Error(`The welcome screen in ${lang} did not draw: ${html}`);
  return { html, creating: messages["setup.creating"] ?? "" };
};

/** The welcome screen in every language offered. */
export const renderWelcomes = async (): Promise<WelcomeScreens> =>
  Object.fromEntries(
    await Promise.all(LANGUAGES.map(async ({ value }) => [value, await renderWelcome(value)] as const)),
  );
