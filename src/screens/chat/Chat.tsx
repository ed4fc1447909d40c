import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import { SendHorizontal } from "lucide-react";
import { useLocation, useParams } from "wouter";
import type { ContactRecord } from "../../crdt/doc";
import { useI18n } from "../../i18n/intl";
import type { ChatEntry, ChatPage, MessageInvoice } from "../../projections/chat";
import { BackControl } from "../../ui/BackControl";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Button } from "../../ui/form";
import { formatDay, formatSats, formatTime } from "../../ui/format";
import { pathFor } from "../../ui/incoming";
import { useView, useWallet } from "../../ui/wallet";
import { Avatar } from "../contacts/Avatar";
import { usePayContact } from "../contacts/usePayContact";

/** The chat refreshes this often (spec 2: 5 s). */
export const CHAT_REFRESH_MS = 5_000;
/** A page of the chat; older pages load on scroll. */
const PAGE = 20;

/** Chat with a contact (spec 2 /chat/{id}): header actions, one timeline, invoices with Pay, a message box. */
export function Chat() {
  const { id = "" } = useParams<{ id: string }>();
  const { t, intl } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const { network } = useWalletConfig();
  const payContact = usePayContact();
  // Ask this contact to pay (the request screen), from the header or the empty timeline's prompt.
  const askToPay = () => navigate(`/request/${encodeURIComponent(id)}`);
  const [page, setPage] = useState<ChatPage | null>(null);
  const [limit, setLimit] = useState(PAGE);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const stickToEnd = useRef(true);

  const load = useCallback(async () => {
    try {
      setPage(await client.dispatch({ _tag: "GetChat", contactId: id, limit }));
    } catch (e) {
      setError(errorText(e));
    }
  }, [client, id, limit, errorText]);

  // New messages: read from the relays now and every 5 s, then the chat is read again from the log.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = async () => {
      const read = await client.dispatch({ _tag: "SyncMessages" }).catch(() => null);
      if (stopped) return;
      await load();
      // A backlog larger than one read opens is read on at once, a part at a time.
      if (!stopped) timer = setTimeout(() => void refresh(), (read?.waiting ?? 0) > 0 ? 0 : CHAT_REFRESH_MS);
    };
    void load();
    void refresh();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [client, load]);

  // New messages arrive live from the relays' subscription; the 5 s refresh above is the fallback.
  const arrived = useView("live")?.messages_arrived ?? 0;
  useEffect(() => {
    void client.dispatch({ _tag: "WatchMessages" }).catch(() => undefined);
  }, [client]);
  const loadNow = useRef(load);
  loadNow.current = load;
  useEffect(() => {
    if (arrived > 0) void loadNow.current();
  }, [arrived]);

  useEffect(() => {
    const el = list.current;
    if (el && stickToEnd.current) el.scrollTop = el.scrollHeight;
  });

  const send = async () => {
    if (text.trim() === "") return;
    setSending(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "SendMessage", contactId: id, text });
      setText("");
      stickToEnd.current = true;
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSending(false);
    }
  };

  const follow = async (followed: boolean) => {
    setError(null);
    try {
      await client.dispatch({ _tag: "SetFollowed", id, followed });
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const pay = (inv: MessageInvoice) => {
    const r = pathFor(inv.invoice, network);
    if ("path" in r) navigate(`${r.path}&contact=${encodeURIComponent(id)}`);
    else setError(r.error.message);
  };

  const contact = page?.contact;
  const hasNpub = !!contact?.npub;
  const older = () => {
    stickToEnd.current = false;
    setLimit((l) => l + PAGE);
  };

  return (
    <main className="screen chat">
      <BackControl />
      {contact && (
        <header className="chat-header">
          <Avatar name={contact.name} image={contact.image_url} size={48} />
          <h1>{contact.name}</h1>
          <nav className="row" aria-label={t("chat.actions")}>
            <button
              type="button"
              className="button"
              onClick={() => payContact({ ...contact, deleted: false } as ContactRecord)}
            >
              {t("chat.send")}
            </button>
            <Button onClick={askToPay}>{t("chat.request")}</Button>
            {hasNpub && (
              <button type="button" className="button" onClick={() => void follow(!contact.is_followed)}>
                {contact.is_followed ? t("chat.unfollow") : t("chat.follow")}
              </button>
            )}
          </nav>
        </header>
      )}
      {page?.more && (
        <button type="button" className="button" onClick={older}>
          {t("chat.older")}
        </button>
      )}
      {/* A scrolling region of its own, so the keyboard can reach it and scroll it too. */}
      <ol
        ref={list}
        className="chat-timeline"
        aria-label={t("chat.timeline")}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region is focusable so the keyboard can scroll it
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
          if (el.scrollTop === 0 && page?.more) older();
        }}
      >
        {page?.entries.map((entry, i) => (
          <Fragment key={`${entry.type}-${entry.id}`}>
            {/* The day heads its messages; each message says only its time. */}
            {i === 0 || !sameDay(page.entries[i - 1]!.at, entry.at) ? (
              <li className="chat-day">
                <time dateTime={new Date(entry.at * 1000).toISOString().slice(0, 10)}>
                  {formatDay(intl, entry.at * 1000)}
                </time>
              </li>
            ) : null}
            <Entry entry={entry} name={contact?.name ?? ""} onPay={pay} />
          </Fragment>
        ))}
      </ol>
      {page && page.entries.length === 0 && contact && (
        <section className="chat-prompt">
          <p>{t("chat.request_prompt", { name: contact.name })}</p>
          <Button onClick={askToPay}>{t("chat.request")}</Button>
        </section>
      )}
      <ErrorBox text={error} />
      {hasNpub && (
        <form
          className="row chat-box"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label htmlFor="chat-message" className="visually-hidden">
            {t("chat.message")}
          </label>
          <textarea
            id="chat-message"
            value={text}
            rows={2}
            maxLength={10_000}
            placeholder={t("chat.message_placeholder")}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
          />
          <button
            type="submit"
            className="button button-primary chat-send"
            disabled={sending || text.trim() === ""}
            title={t("chat.send_message")}
          >
            <SendHorizontal aria-hidden="true" size={20} />
            <span className="visually-hidden">{t("chat.send_message")}</span>
          </button>
        </form>
      )}
    </main>
  );
}

/** Whether two moments (seconds) fall on one day, as the person's clock counts days. */
const sameDay = (a: number, b: number) =>
  new Date(a * 1000).toDateString() === new Date(b * 1000).toDateString();

function Entry({
  entry,
  name,
  onPay,
}: {
  entry: ChatEntry;
  /** The contact's name: their requests read "Ann requested". */
  name: string;
  onPay: (inv: MessageInvoice) => void;
}) {
  const { t, intl } = useI18n();
  const time = formatTime(intl, entry.at * 1000);
  if (entry.type === "activity")
    return (
      <li className="chat-activity">
        <span>
          {t(entry.inbound ? "chat.received" : "chat.sent", { amount: formatSats(intl, entry.amount_sats) })}
          {entry.pending ? ` · ${t("chat.pending")}` : ""}
        </span>
        <time dateTime={new Date(entry.at * 1000).toISOString()}>{time}</time>
      </li>
    );
  const request = entry.invoices.length > 0;
  return (
    <li className={entry.mine ? "chat-message mine" : "chat-message"}>
      {/* A request is its card (amount, note, Pay or Paid), never the long payment link it carries. */}
      {request ? null : <p>{entry.text}</p>}
      {entry.invoices.map((inv) => (
        <div key={inv.original} className="chat-request">
          <div className="column">
            {/* Who asked, and for what: "You requested 5,000 sats", "Ann requested 5,000 sats". */}
            <strong>
              {entry.mine
                ? t("chat.you_requested", {
                    amount: inv.amount_sats === null ? "" : formatSats(intl, inv.amount_sats),
                    any: inv.amount_sats === null ? "yes" : "no",
                  })
                : t("chat.they_requested", {
                    name,
                    amount: inv.amount_sats === null ? "" : formatSats(intl, inv.amount_sats),
                    any: inv.amount_sats === null ? "yes" : "no",
                  })}
            </strong>
            {entry.note !== "" ? <p>{entry.note}</p> : null}
          </div>
          {/* Its state on both sides: Pay or Paid for theirs, waiting or Paid for the owner's. */}
          {inv.payable ? (
            <button type="button" className="button button-primary" onClick={() => onPay(inv)}>
              {t("chat.pay")}
            </button>
          ) : inv.paid ? (
            <span className="badge badge-paid">{t("chat.paid")}</span>
          ) : entry.mine ? (
            <span className="badge">{t("chat.request_waiting")}</span>
          ) : null}
        </div>
      ))}
      <time dateTime={new Date(entry.at * 1000).toISOString()}>
        {time}
        {entry.delivery === "pending"
          ? ` · ${t("chat.waiting")}`
          : entry.delivery === "refused"
            ? ` · ${t("chat.refused")}`
            : ""}
      </time>
    </li>
  );
}
