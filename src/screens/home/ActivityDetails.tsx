import { ErrorBox, useErrorText } from "../../ui/errors";
import { useEffect, useState } from "react";
import {
  type ActivityItem,
  type ChannelDetails,
  type LightningDetails,
  neverOpened,
  type OnchainDetails,
  ownerFee,
} from "../../projections/activity";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import { CapacityBar } from "../../ui/CapacityBar";
import { CopyButton } from "../../ui/CopyButton";
import { Dialog } from "../../ui/Dialog";
import { ExplorerLink } from "../../ui/ExplorerLink";
import { truncateMiddle } from "../../ui/format";
import { useBalanceShown } from "../../ui/prefs";
import { useView, useWallet } from "../../ui/wallet";
import { Amount } from "./Amount";
import { followRow, rowStatus, STATUS_KEY } from "./details-follow";

/**
 * The details modal of an activity row (spec 1 §2 "Details modal by activity kind"). It follows the views
 * while open: the row as the activity view has it now, its details asked again whenever the view changes.
 */
export function ActivityDetails({
  item: opened,
  onClose,
}: {
  item: ActivityItem | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  const errorText = useErrorText();
  const client = useWallet();
  const live = useView("live");
  const contacts = useView("contacts");
  const activity = useView("activity");
  const [shown] = useBalanceShown();
  const [details, setDetails] = useState<OnchainDetails | null>(null);
  const [payment, setPayment] = useState<LightningDetails | null>(null);
  const [channel, setChannel] = useState<ChannelDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const item = followRow(activity?.items, opened);
  const id = item?.id ?? null;
  const kind = item?.kind ?? null;

  // Another row: nothing of the last one stays on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `id` and `kind` name the row whose details these are
  useEffect(() => {
    setDetails(null);
    setPayment(null);
    setChannel(null);
    setError(null);
  }, [id, kind]);

  // Asked when the row opens and again on every change of the activity view (a payment settling, a
  // transaction confirming): the answers replace the shown ones when they come.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `activity` changing is what asks again
  useEffect(() => {
    if (id === null) return;
    let current = true;
    const failed = (e: unknown) => current && setError(errorText(e));
    if (kind === "OnChain")
      client.dispatch({ _tag: "GetTransaction", txid: id }).then((d) => current && setDetails(d), failed);
    else if (kind === "Lightning")
      client.dispatch({ _tag: "GetLightningPayment", id }).then((p) => current && setPayment(p), failed);
    else if (kind !== "Ecash")
      client.dispatch({ _tag: "GetChannelEvent", id }).then((c) => current && setChannel(c), failed);
    return () => {
      current = false;
    };
  }, [id, kind, activity, client, errorText]);

  if (!item)
    return (
      <Dialog open={false} title="" onClose={onClose}>
        {null}
      </Dialog>
    );
  const notOpened = neverOpened(item);
  const title = notOpened
    ? t("activity.channel_not_opened")
    : item.kind === "ChannelOpen"
      ? t("activity.channel_open")
      : item.kind === "ChannelClose"
        ? t("activity.channel_close")
        : item.kind === "ChannelPenalty"
          ? t("channels.penalty_title")
          : item.inbound
            ? t("activity.received")
            : t("activity.sent");
  // A funding that never reached the chain is on no explorer, and cost nothing.
  const txid = notOpened ? null : item.kind === "OnChain" ? item.id : (channel?.txid ?? null);
  const status = rowStatus(item, payment);
  // A payment that failed after it was opened has left the list: it is dated by its own answer.
  const date = status === "failed" && payment ? payment.at : item.last_updated;
  const fee = notOpened
    ? null
    : ownerFee(item, details?.fee ?? payment?.fee_sats ?? channel?.fee_sats ?? null);
  return (
    <Dialog open title={title} onClose={onClose}>
      <dl className="details">
        <dt>{t("activity.amount")}</dt>
        <dd>
          {/* Ecash is counted in e-sats here too, as on home. */}
          <Amount
            sats={item.amount_sats}
            shown={shown}
            live={live}
            unit={item.kind === "Ecash" ? "e-sats" : "sats"}
          />
        </dd>
        {fee !== null ? (
          <>
            <dt>{t("activity.fee")}</dt>
            <dd>
              <Amount sats={fee} shown={shown} live={live} />
            </dd>
          </>
        ) : null}
        {payment && payment.hops.length > 0 ? (
          <>
            <dt>{t("activity.hops")}</dt>
            <dd data-testid="payment-hops">
              {payment.hops.length === 1
                ? payment.hops[0]
                : t("activity.hops_split", { hops: payment.hops.join(", "), count: payment.hops.length })}
            </dd>
          </>
        ) : null}
        {channel?.kind === "ChannelOpen" && channel.capacity_sats !== null && !notOpened ? (
          <>
            <dt>{t("activity.capacity")}</dt>
            <dd>
              <CapacityBar ours={channel.balance_sats} size={channel.capacity_sats} />
              <Amount sats={channel.capacity_sats} shown={shown} live={live} />
            </dd>
          </>
        ) : null}
        {channel?.kind === "ChannelClose" ? (
          <>
            <dt>{t("activity.channel_id")}</dt>
            <dd>
              <code title={channel.channel_id}>{truncateMiddle(channel.channel_id)}</code>
            </dd>
            <dt>{t("activity.reason")}</dt>
            <dd>{channel.reason}</dd>
          </>
        ) : null}
        {payment?.description ? (
          <>
            <dt>{t("activity.description")}</dt>
            <dd>{payment.description}</dd>
          </>
        ) : null}
        {payment?.preimage ? (
          <>
            <dt>{t("activity.preimage")}</dt>
            <dd className="row">
              <code title={payment.preimage}>{truncateMiddle(payment.preimage)}</code>
              <CopyButton text={payment.preimage} copiedMs={1000} />
            </dd>
          </>
        ) : null}
        {(() => {
          // The contacts a payment was made with come first, by name; a label that only repeats the
          // description is not said twice, and a payment with neither has no Tag row.
          const names = (contacts ?? []).filter((c) => item.contacts.includes(c.id)).map((c) => c.name);
          const tags = [...names, ...item.labels.filter((l) => l !== payment?.description)];
          return tags.length > 0 ? (
            <>
              <dt>{t("activity.tag")}</dt>
              <dd>{tags.join(", ")}</dd>
            </>
          ) : null;
        })()}
        <dt>{t("activity.status")}</dt>
        <dd data-testid="activity-status">{t(STATUS_KEY[status])}</dd>
        <dt>{t("activity.date")}</dt>
        <dd>{date === 0 ? t("activity.pending") : fmt.dateTime(date * 1000)}</dd>
        {txid ? (
          <>
            <dt>{t("activity.txid")}</dt>
            <dd className="row">
              <code title={txid}>{truncateMiddle(txid)}</code>
              <CopyButton text={txid} copiedMs={1000} />
              <ExplorerLink txid={txid} />
            </dd>
          </>
        ) : null}
      </dl>
      {item.kind === "ChannelClose" ? <p>{t("activity.sweep_delay")}</p> : null}
      {channel?.penalty ? (
        <p role="status">
          {t(channel.swept ? "channels.penalty" : "channels.penalty_pending", {
            amount: fmt.sats(channel.balance_sats),
          })}
        </p>
      ) : null}
      {notOpened ? <p>{t("activity.not_opened_note")}</p> : null}
      <ErrorBox text={error} />
    </Dialog>
  );
}
