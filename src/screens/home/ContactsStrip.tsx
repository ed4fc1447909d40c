import { useState } from "react";
import { useI18n } from "../../i18n/intl";
import { CONTACT_STRIP_LIMIT } from "../../projections/contacts";
import { useGradualCount } from "../../ui/gradual";
import { useView } from "../../ui/wallet";
import { Avatar } from "../contacts/Avatar";
import { ContactDetailDialog, CreateContactDialog, NewContactButton } from "../contacts/ContactDialogs";

/** Contacts in home's first frame (the strip scrolls sideways); the rest of the 40 follow at once. */
const FIRST_CONTACTS = 10;

/** Home's contacts strip (spec 1 §2): a new-contact tile, then up to 40 contacts, the most recent first. */
export function ContactsStrip() {
  const { t } = useI18n();
  const contacts = useView("contacts");
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const shown = useGradualCount(Math.min(contacts?.length ?? 0, CONTACT_STRIP_LIMIT), FIRST_CONTACTS);
  if (!contacts) return null;
  return (
    <>
      <ul className="contacts-strip" aria-label={t("home.contacts")}>
        <li>
          <NewContactButton variant="tile" onClick={() => setCreating(true)} />
        </li>
        {contacts.slice(0, shown).map((c) => (
          <li key={c.id}>
            <button type="button" className="contact-chip" onClick={() => setOpen(c.id)}>
              <Avatar name={c.name} image={c.image_url} />
              <span>{c.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <CreateContactDialog open={creating} onClose={() => setCreating(false)} onCreated={setOpen} />
      <ContactDetailDialog contactId={open} onClose={() => setOpen(null)} />
    </>
  );
}
