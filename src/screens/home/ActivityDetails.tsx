import { ErrorBox, useErrorText } from "../../ui/errors";
import { useEffect, useState } from "react";
import type { ActivityItem, OnchainDetails } from "../../projections/activity";
import { useI18n } from "../../i18n/intl";
import { CopyButton } from "../../ui/CopyButton";
import { Dialog } from "../../ui/Dialog";
import { explorerTxUrl } from "../../ui/explorer";
import { truncateMiddle } from "../../ui/format";
import { useBalanceShown } from "../../ui/prefs";
import { useView, useWallet } from "../../ui/wallet";
import { useWalletConfig } from "../../ui/config";
import { Amount } from "./Amount";

/** The details modal of an activity row (spec 1 §2 "Details modal by activity kind"). */
export function ActivityDetails({ item, onClose }: { item: ActivityItem | null; onClose: () => void }) {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const live = useView("live");
  const config = useWalletConfig();
  const [shown] = useBalanceShown();
  const [details, setDetails] = useState<OnchainDetails | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setDetails(null);
    setError(null);
    if (item?.kind !== "OnChain") return;
    client
      .dispatch({ _tag: "GetTransaction", txid: item.id })
      .then(setDetails)
      .catch((e: unknown) => setError(errorText(e)));
  }, [item, client, errorText]);

  if (!item)
    return (
      <Dialog open={false} title="" onClose={onClose}>
        {null}
      </Dialog>
    );
  const title = item.inbound ? t("activity.received") : t("activity.sent");
  return (
    <Dialog open title={title} onClose={onClose}>
      <dl className="details">
        <dt>{t("activity.amount")}</dt>
        <dd>
          <Amount sats={item.amount_sats} shown={shown} live={live} />
        </dd>
        {details ? (
          <>
            <dt>{t("activity.fee")}</dt>
            <dd>
              <Amount sats={details.fee} shown={shown} live={live} />
            </dd>
          </>
        ) : null}
        <dt>{t("activity.tag")}</dt>
        <dd>{item.labels.length > 0 ? item.labels.join(", ") : t("activity.no_tag")}</dd>
        <dt>{t("activity.status")}</dt>
        <dd>
          {item.dropped
            ? t("activity.dropped")
            : item.last_updated === 0
              ? t("activity.unconfirmed")
              : t("activity.confirmed")}
        </dd>
        <dt>{t("activity.date")}</dt>
        <dd>
          {item.last_updated === 0
            ? t("activity.pending")
            : new Date(item.last_updated * 1000).toLocaleString()}
        </dd>
        {item.kind === "OnChain" ? (
          <>
            <dt>{t("activity.txid")}</dt>
            <dd className="row">
              <code title={item.id}>{truncateMiddle(item.id)}</code>
              <CopyButton text={item.id} copiedMs={1000} />
              <a
                className="link"
                href={explorerTxUrl(config.network, item.id, config.esplora)}
                target="_blank"
                rel="noreferrer"
              >
                {t("activity.explorer")}
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      <ErrorBox text={error} />
    </Dialog>
  );
}
