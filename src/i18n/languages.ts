/** The languages offered (spec 1 §9), with the short names the picker shows. */
export const LANGUAGES = [
  { value: "en", shortName: "EN", label: "English" },
  { value: "de", shortName: "DE", label: "Deutsch" },
  { value: "es", shortName: "ES", label: "Español" },
  { value: "fr", shortName: "FR", label: "Français" },
  { value: "zh-CN", shortName: "简体", label: "简体中文" },
  { value: "zh-TW", shortName: "繁體", label: "繁體中文" },
  { value: "it", shortName: "IT", label: "Italiano" },
  { value: "ko", shortName: "KO", label: "한국어" },
  { value: "pt", shortName: "PT", label: "Português" },
] as const;

export type Language = (typeof LANGUAGES)[number]["value"];
export const FALLBACK_LANGUAGE: Language = "en";
/** The local storage key the chosen language is kept under. */
export const LANGUAGE_STORAGE_KEY = "i18nextLng";

/**
 * Maps a language tag to one we offer: exact first, then Chinese by script or region, then the
 * language part alone ("de-AT" → "de"). Null when none fits.
 */
export const matchLanguage = (tag: string | null | undefined): Language | null => {
  if (!tag) return null;
  const t = tag.trim().replace("_", "-");
  const exact = LANGUAGES.find((l) => l.value.toLowerCase() === t.toLowerCase());
  if (exact) return exact.value;
  const [lang, ...rest] = t.toLowerCase().split("-");
  if (lang === "zh")
    return rest.some((p) => p === "tw" || p === "hk" || p === "mo" || p === "hant") ? "zh-TW" : "zh-CN";
  return LANGUAGES.find((l) => l.value === lang)?.value ?? null;
};

export interface LanguageSources {
  readonly stored: string | null;
  readonly query: string | null;
  readonly browser: readonly string[];
  readonly html: string | null;
}

/** Detection order of spec 1 §9: local storage, the `lang` query parameter, the browser, the html tag. */
export const detectLanguage = (s: LanguageSources): Language =>
  matchLanguage(s.stored) ??
  matchLanguage(s.query) ??
  s.browser.map(matchLanguage).find((l) => l !== null) ??
  matchLanguage(s.html) ??
  FALLBACK_LANGUAGE;

/** The language to start in, from what this browser and page say (spec 1 §9). */
export const initialLanguage = (): Language => {
  const params = new URLSearchParams(globalThis.location?.search ?? "");
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage blocked: detection falls through to the next source
  }
  return detectLanguage({
    stored,
    query: params.get("lang"),
    browser: globalThis.navigator?.languages ?? [],
    html: globalThis.document?.documentElement.lang ?? null,
  });
};
