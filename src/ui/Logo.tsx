import { useI18n } from "../i18n/intl";
import { useView } from "./wallet";

/**
 * The wallet's logo. Membership changes it (spec 1 roles): a Plus member's carries the Plus mark, read from
 * the worker's plus view (the membership flag at the moment the view was made).
 */
export function Logo({ large = false }: { readonly large?: boolean }) {
  const { t } = useI18n();
  const member = useView("plus")?.mutiny_plus ?? false;
  const name = member ? t("logo.plus") : t("logo.standard");
  return (
    <span
      className={`logo${member ? " logo-plus" : ""}${large ? " logo-large" : ""}`}
      role="img"
      aria-label={name}
    >
      <img src="/icon.svg" alt="" width={large ? 72 : 32} height={large ? 72 : 32} />
      <span aria-hidden="true">{name}</span>
    </span>
  );
}
