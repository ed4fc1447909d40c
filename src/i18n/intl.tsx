import { createIntl, createIntlCache, type IntlShape } from "@formatjs/intl";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import en from "../../locales/en.json";
import { type Language, LANGUAGE_STORAGE_KEY } from "./languages";

export type Messages = Record<string, string>;
type Values = Record<string, string | number | bigint>;

const english = en as Messages;
const loaders = import.meta.glob<{ default: Messages }>(["../../locales/*.json", "!../../locales/en.json"]);
const cache = createIntlCache();

/** Loads a language's messages; English is always in the bundle and fills any gap. */
export const loadMessages = async (lang: Language): Promise<Messages> => {
  if (lang === "en") return english;
  const load = loaders[`../../locales/${lang}.json`];
  return load ? { ...english, ...(await load()).default } : english;
};

const makeIntl = (lang: Language, messages: Messages): IntlShape<string> =>
  createIntl({ locale: lang, messages, defaultLocale: "en", onError: () => undefined }, cache);

export interface I18n {
  readonly lang: Language;
  /** The text for a key, or the key's English text when this language lacks it. */
  readonly t: (key: string, values?: Values) => string;
  readonly has: (key: string) => boolean;
  readonly setLang: (lang: Language) => Promise<void>;
  readonly intl: IntlShape<string>;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial: { lang: Language; messages: Messages };
}) {
  const [state, setState] = useState(initial);
  useEffect(() => {
    document.documentElement.lang = state.lang;
  }, [state.lang]);
  const setLang = useCallback(async (lang: Language) => {
    const messages = await loadMessages(lang);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
    setState({ lang, messages });
  }, []);
  const value = useMemo<I18n>(() => {
    const intl = makeIntl(state.lang, state.messages);
    return {
      lang: state.lang,
      intl,
      setLang,
      has: (key) => key in state.messages,
      t: (key, values) =>
        key in state.messages
          ? intl.formatMessage(
              { id: key, defaultMessage: english[key] ?? key },
              values as Record<string, string>,
            )
          : key,
    };
  }, [state, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useI18n outside I18nProvider");
  return i18n;
};
