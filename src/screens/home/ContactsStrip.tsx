import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";

/** Home shows up to 40 contacts. */
export const CONTACT_STRIP_LIMIT = 40;

export function ContactsStrip() {
  const { t } = useI18n();
  const contacts = useView("contacts");
  if (!contacts || contacts.length === 0) return null;
  return (
    <ul className="contacts-strip" aria-label={t("home.contacts")}>
      {contacts.slice(0, CONTACT_STRIP_LIMIT).map((c) => (
        <li key={c.id} className="contact-chip">
          <span className="avatar" aria-hidden="true">
            {c.image_url ? (
              <img src={c.image_url} alt="" width={40} height={40} />
            ) : (
              (c.name[0] ?? "?").toUpperCase()
            )}
          </span>
          <span>{c.name}</span>
        </li>
      ))}
    </ul>
  );
}
