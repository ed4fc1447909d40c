import type { LnurlOffer } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { truncateMiddle } from "../../ui/format";
import type { ParsedPaymentRequest } from "../../ui/incoming";
import { useFormat } from "../../ui/useFormat";
import type { SendRoute } from "./send-rules";

/**
 * What the destination asks: its kind and who it pays, the amount and memo it carries, the service's own
 * words (paying it from ecash is a source the amount entry offers, where the ecash covers it).
 */
export function RequestSummary({
  request,
  route,
  offer,
}: {
  request: ParsedPaymentRequest;
  route: SendRoute | null;
  offer: LnurlOffer | null;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  return (
    <section aria-label={t("send.request")} className="column" data-testid="send-request">
      <p>
        {t(`send.kind_${route?.kind ?? "onchain"}`)}:{" "}
        <code
          title={
            request.lightning_address ??
            request.address ??
            request.invoice ??
            request.node_pubkey ??
            request.lnurl ??
            ""
          }
        >
          {request.lightning_address ??
            truncateMiddle(request.address ?? request.invoice ?? request.node_pubkey ?? offer?.domain ?? "")}
        </code>
      </p>
      {request.amount_sats !== null ? (
        <p>{t("send.request_amount", { amount: fmt.sats(request.amount_sats) })}</p>
      ) : null}
      {request.memo ? <p>{request.memo}</p> : null}
      {!request.memo && offer?.description ? (
        <blockquote className="service-words">
          <p>{t("lnurl.service_says", { domain: offer.domain, text: offer.description })}</p>
        </blockquote>
      ) : null}
    </section>
  );
}
