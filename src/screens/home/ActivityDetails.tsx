import { ErrorBox, useErrorText } from "../../ui/errors";
import { useEffect, useState } from "react";
import {
  type ActivityItem,
  type ChannelDetails,
  type LightningDetails,
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

/** The details modal of an activity row (spec 1 §2 "Details modal by activity kind"). */
export function ActivityDetails({ item, onClose }: { item: ActivityItem | null; onClose: () => void }) {
  const { t } = useI18n();
  const fmt = useFormat();
  const errorText = useErrorText();
  const client = useWallet();
  const live = useView("live");
  const contacts = useView("contacts");
  const [shown] = useBalanceShown();
  const [details, setDetails] = useState<OnchainDetails | null>(null);
  const [payment, setPayment] = useState<LightningDetails | null>(null);
  const [channel, setChannel] = useState<ChannelDetails | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setDetails(null);
    setPayment(null);
    setChannel(null);
    setError(null);
    if (!item) return;
    const failed = (e: unknown) => setError(errorText(e));
    if (item.kind === "OnChain")
      client.dispatch({ _tag: "GetTransaction", txid: item.id }).then(setDetails, failed);
    else if (item.kind === "Lightning")
      client.dispatch({ _tag: "GetLightningPayment", id: item.id }).then(setPayment, failed);
    else if (item.kind !== "Ecash")
      client.dispatch({ _tag: "GetChannelEvent", id: item.id }).then(setChannel, failed);
  }, [item, client, errorText]);

  if (!item)
    return (
      <Dialog open={false} title="" onClose={onClose}>
        {null}
      </Dialog>
    );
  const title =
    item.kind === "ChannelOpen"
      ? t("activity.channel_open")
      : item.kind === "ChannelClose"
        ? t("activity.channel_close")
        : item.inbound
          ? t("activity.received")
          : t("activity.sent");
  const txid = item.kind === "OnChain" ? item.id : (channel?.txid ?? null);
  const fee = ownerFee(item, details?.fee ?? payment?.fee_sats ?? channel?.fee_sats ?? null);
  return (
    <Dialog open title={title} onClose={onClose}>
      <dl className="details">
        <dt>{t("activity.amount")}</dt>
        <dd>
          <Amount sats={item.amount_sats} shown={shown} live={live} />
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
        {channel?.kind === "ChannelOpen" && channel.capacity_sats !== null ? (
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
        <dt>{t("activity.tag")}</dt>
        <dd>
          {(() => {
            // The contacts a payment was made with come first, by name.
            const names = (contacts ?? []).filter((c) => item.contacts.includes(c.id)).map((c) => c.name);
            const tags = [...names, ...item.labels];
            return tags.length > 0 ? tags.join(", ") : t("activity.no_tag");
          })()}
        </dd>
        <dt>{t("activity.status")}</dt>
        <dd>
          {item.dropped
            ? t("activity.dropped")
            : item.last_updated === 0
              ? t("activity.unconfirmed")
              : t("activity.confirmed")}
        </dd>
        <dt>{t("activity.date")}</dt>
        <dd>{item.last_updated === 0 ? t("activity.pending") : fmt.dateTime(item.last_updated * 1000)}</dd>
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
      <ErrorBox text={error} />
    </Dialog>
  );
}
