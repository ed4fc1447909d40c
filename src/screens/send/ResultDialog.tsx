import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Dialog } from "../../ui/Dialog";
import { truncateMiddle } from "../../ui/format";
import { useFormat } from "../../ui/useFormat";
import type { SendResult, ShownAction } from "./payment";

/** What the service gave back with the payment: a message, a secret opened (or why not), or a link. */
function SuccessAction({ action }: { action: ShownAction }) {
  const { t } = useI18n();
  if (action.tag === "message") return <p role="status">{action.message}</p>;
  if (action.tag === "secret")
    return (
      <div role="status">
        <p>{action.description}</p>
        {action.secret !== null ? <code>{action.secret}</code> : null}
        {action.problem !== null ? <p className="error-box">{action.problem}</p> : null}
      </div>
    );
  return (
    <p>
      {action.description}{" "}
      <a href={action.url} target="_blank" rel="noreferrer noopener">
        {t("send.open_link")}
      </a>
    </p>
  );
}

/**
 * The payment's outcome: sent (or still pending) with its fee, or why it failed. A payment to a contact
 * (`chat`: paid from their chat or their card) leads back to the chat with them first, then home.
 */
export function ResultDialog({
  result,
  chat = null,
  onClose,
}: {
  result: SendResult | null;
  chat?: { readonly id: string; readonly name: string } | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  return (
    <Dialog
      open={result !== null}
      title={
        result?.ok
          ? result.pending
            ? t("send.pending_title")
            : t("send.sent_title")
          : t("send.failed_title")
      }
      onClose={onClose}
    >
      {result?.ok ? (
        <div className="column">
          <p>
            {result.pending
              ? t("send.pending_text")
              : t(
                  result.txid
                    ? "send.sent_text"
                    : result.ecash !== undefined
                      ? "send.sent_text_ecash"
                      : "send.sent_text_lightning",
                  {
                    amount: fmt.sats(result.amountSats),
                    fee: fmt.sats(result.feeSats),
                    name: result.ecash ?? "",
                  },
                )}
          </p>
          {result.txid ? <code title={result.txid}>{truncateMiddle(result.txid)}</code> : null}
          {result.successAction ? <SuccessAction action={result.successAction} /> : null}
          {chat ? (
            <Link href={`/chat/${encodeURIComponent(chat.id)}`} className="button button-primary">
              {t("send.back_to_chat", { name: chat.name })}
            </Link>
          ) : null}
          <Link href="/" className={chat ? "button" : "button button-primary"}>
            {t("common.home")}
          </Link>
        </div>
      ) : (
        <p className="error-box">{result?.reason}</p>
      )}
    </Dialog>
  );
}
