import { useI18n } from "../../i18n/intl";
import { type Language, LANGUAGES } from "../../i18n/languages";
import { ChoiceSettings } from "./ChoiceSettings";

/** Language choice; kept in this browser (key i18nextLng), then home after 1000 ms. */
export function LanguageSettings() {
  const { t, lang, setLang } = useI18n();
  const save = async (value: string) => {
    if (!LANGUAGES.some((l) => l.value === value)) return t("settings.language.error_unsupported_language");
    try {
      await setLang(value as Language);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : t("common.unknown_error");
    }
  };
  return (
    <ChoiceSettings keys="settings.language" id="language" options={LANGUAGES} current={lang} save={save} />
  );
}
