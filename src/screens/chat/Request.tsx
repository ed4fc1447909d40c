import { useEffect, useState } from "react";
import { useLocation, useParams } from "wouter";
import { useI18n } from "../../i18n/intl";
import type { ChatPage } from "../../projections/chat";
import { AmountEntry } from "../../ui/AmountEntry";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { useWallet } from "../../ui/wallet";
import { Avatar } from "../contacts/Avatar";

/**
 * Request bitcoin from a contact (spec 2 /request/{id}): an amount above 0 and an optional "what for"; the
 * request (a BIP21 with a lightning invoice, labelled with the contact) goes to the contact as a message.
 */
export function Request() {
  const { id = "" } = useParams<{ id: string }>();
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [contact, setContact] = useState<ChatPage["contact"] | null>(null);
  const [amount, setAmount] = useState<bigint | null>(null);
  const [whatFor, setWhatFor] = useState("");
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    client
      .dispatch({ _tag: "GetChat", contactId: id, limit: 1 })
      .then((p) => setContact(p.contact))
      .catch((e: unknown) => setError(errorText(e)));
  }, [client, id, errorText, setError]);

  const request = () => {
    if (!contact?.npub) return setError(t("contacts.error_no_npub"));
    if (amount === null || amount <= 0n) return setError(t("chat.error_amount"));
    return run(
      async () => {
        const labels = whatFor.trim() === "" ? [id] : [id, whatFor.trim()];
        const receive = await client.dispatch({
          _tag: "CreateReceive",
          amountSats: amount,
          labels,
          flavor: "unified",
        });
        const note = whatFor.trim();
        await client.dispatch({
          _tag: "SendMessage",
          contactId: id,
          text: note === "" ? receive.uri : `${note} ${receive.uri}`,
        });
        navigate(`/chat/${encodeURIComponent(id)}`, { replace: true });
      },
      { stayBusy: true },
    );
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("chat.request_title")}</h1>
      {contact && (
        // Whom it goes to, set apart from the form below it.
        <p className="row">
          <Avatar name={contact.name} image={contact.image_url} />
          <span>{contact.name}</span>
        </p>
      )}
      <Form onSubmit={request}>
        <AmountEntry id="request-amount" label={t("chat.amount")} value={amount} onChange={setAmount} />
        <TextField
          id="request-what-for"
          label={t("chat.what_for")}
          value={whatFor}
          maxLength={200}
          autoComplete={undefined}
          spellCheck={undefined}
          onValue={setWhatFor}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.loading") : t("chat.request")}
        </button>
      </Form>
    </main>
  );
}
