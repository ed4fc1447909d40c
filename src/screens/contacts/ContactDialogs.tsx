import { useState } from "react";
import { Link } from "wouter";
import type { ContactRecord } from "../../crdt/doc";
import { useI18n } from "../../i18n/intl";
import { Dialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { useAction } from "../../ui/form";
import { truncateMiddle } from "../../ui/format";
import { ShareField } from "../../ui/ShareField";
import { useView, useWallet } from "../../ui/wallet";
import { Avatar } from "./Avatar";
import { ContactForm } from "./ContactForm";
import { payTarget, usePayContact } from "./usePayContact";

const EMPTY = { name: "", npub: "", ln_address: "" };

/** The create dialog behind the new-contact button; `onCreated` gets the new contact's id. */
export function CreateContactDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated?: (id: string) => void;
}) {
  const { t } = useI18n();
  const client = useWallet();
  return (
    <Dialog open={open} title={t("contacts.create_title")} onClose={onClose}>
      {open ? (
        <ContactForm
          initial={EMPTY}
          submitLabel={t("contacts.create")}
          onSubmit={async (v) => {
            const r = await client.dispatch({ _tag: "CreateContact", ...v });
            onClose();
            onCreated?.(r.id);
          }}
        />
      ) : null}
    </Dialog>
  );
}

/** The new-contact button: a tile in the contacts strip, a row in lists (spec 1 §2). */
export function NewContactButton({ variant, onClick }: { variant: "tile" | "row"; onClick: () => void }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className={variant === "tile" ? "contact-chip contact-new" : "contact-row contact-new"}
      onClick={onClick}
    >
      <span className="avatar" aria-hidden="true">
        +
      </span>
      <span>{t("contacts.new")}</span>
    </button>
  );
}

/**
 * The contact detail dialog (spec 1 §2): avatar, name, npub and lightning address with copy buttons,
 * edit and pay; edit mode is the form with a delete button that asks first. `contactId` null: closed.
 */
export function ContactDetailDialog({
  contactId,
  onClose,
}: {
  contactId: string | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const contacts = useView("contacts");
  const contact = contactId ? (contacts?.find((c) => c.id === contactId) ?? null) : null;
  return (
    <Dialog open={contact !== null} title={contact?.name || t("contacts.contact")} onClose={onClose}>
      {contact ? <ContactDetail key={contact.id} contact={contact} onClose={onClose} /> : null}
    </Dialog>
  );
}

function ContactDetail({ contact, onClose }: { contact: ContactRecord; onClose: () => void }) {
  const { t } = useI18n();
  const client = useWallet();
  const pay = usePayContact();
  const [mode, setMode] = useState<"view" | "edit" | "delete">("view");
  const { busy, error, run } = useAction();

  if (mode === "edit")
    return (
      <ContactForm
        initial={{ name: contact.name, npub: contact.npub ?? "", ln_address: contact.ln_address ?? "" }}
        submitLabel={t("contacts.save")}
        onSubmit={async (v) => {
          await client.dispatch({ _tag: "EditContact", id: contact.id, ...v });
          setMode("view");
        }}
      >
        <div className="row">
          <button type="button" className="button" onClick={() => setMode("view")}>
            {t("common.cancel")}
          </button>
          <button type="button" className="button button-danger" onClick={() => setMode("delete")}>
            {t("contacts.delete")}
          </button>
        </div>
      </ContactForm>
    );

  if (mode === "delete")
    return (
      <div className="column">
        <p>{t("contacts.delete_confirm", { name: contact.name })}</p>
        <ErrorBox text={error} />
        <div className="row">
          <button type="button" className="button" onClick={() => setMode("edit")}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await client.dispatch({ _tag: "DeleteContact", id: contact.id });
                onClose();
              })
            }
          >
            {t("contacts.delete")}
          </button>
        </div>
      </div>
    );

  const payable = payTarget(contact) !== null;
  return (
    <div className="column contact-detail">
      <Avatar name={contact.name} image={contact.image_url} size={72} />
      {contact.npub ? (
        <ShareField
          label={t("contacts.npub")}
          text={contact.npub}
          shown={truncateMiddle(contact.npub)}
          className="mono"
          copyLabel={t("contacts.copy_npub")}
        />
      ) : null}
      {contact.ln_address ? (
        <ShareField
          label={t("contacts.ln_address")}
          text={contact.ln_address}
          className="mono"
          copyLabel={t("contacts.copy_ln_address")}
        />
      ) : null}
      <ErrorBox text={error} />
      {/* Pay first, then the rest, in even columns: no button left alone on a row. */}
      <div className="contact-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!payable}
          onClick={() => {
            onClose();
            pay(contact);
          }}
        >
          {t("contacts.pay")}
        </button>
        {contact.npub ? (
          <Link href={`/chat/${encodeURIComponent(contact.id)}`} className="button" onClick={onClose}>
            {t("chat.open")}
          </Link>
        ) : null}
        {contact.npub ? (
          <button
            type="button"
            className="button"
            aria-pressed={contact.is_followed}
            disabled={busy}
            onClick={() =>
              run(() =>
                client.dispatch({ _tag: "SetFollowed", id: contact.id, followed: !contact.is_followed }),
              )
            }
          >
            {contact.is_followed ? t("contacts.unfollow") : t("contacts.follow")}
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => setMode("edit")}>
          {t("contacts.edit")}
        </button>
      </div>
      {payable ? null : <p className="hint">{t("contacts.error_no_pay_target")}</p>}
    </div>
  );
}
