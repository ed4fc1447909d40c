import { useState } from "react";
import { Link } from "wouter";
import { type ChannelView, channelGroups, forceCloseOffered } from "../../projections";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import { Screen } from "../../ui/Screen";
import { CapacityBar } from "../../ui/CapacityBar";
import { ConfirmDialog } from "../../ui/Dialog";
import { useErrorText } from "../../ui/errors";
import { ExplorerLink } from "../../ui/ExplorerLink";
import { truncateMiddle } from "../../ui/format";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { InterruptedOpens } from "../home/InterruptedOpens";
import { CLOSE_WORDS } from "./channel-actions";

/**
 * How a channel's peer is shown: connected (closed cooperatively), being dialled (nothing to close: it is
 * coming back), or offline since when (Force close once it has been long enough, its cost said).
 */
type PeerShown =
  | { readonly kind: "online" }
  | { readonly kind: "connecting" }
  | { readonly kind: "offline"; readonly since: number | null };

/** One channel: what we can send and receive as a bar, its funding on the explorer, and a close button. */
function ChannelRow({
  channel,
  link,
  onClose,
}: {
  channel: ChannelView;
  link: PeerShown;
  /** Absent while the channel is opening, or its peer is coming back: nothing to close now. */
  onClose?: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  const txid = channel.outpoint.split(":")[0] ?? "";
  const ours = channel.balance + channel.reserve;
  return (
    <li className="channel">
      <div className="row">
        <span>{t("channels.size", { amount: fmt.sats(channel.size) })}</span>
        <code title={channel.peer}>{truncateMiddle(channel.peer)}</code>
      </div>
      <CapacityBar ours={ours} size={channel.size} />
      <div className="row">
        <span>{t("channels.can_send", { amount: fmt.sats(channel.sendable) })}</span>
        <span>{t("channels.can_receive", { amount: fmt.sats(channel.inbound) })}</span>
      </div>
      {channel.never_opened ? (
        <p className="hint">{t("channels.never_opened_note")}</p>
      ) : channel.opening ? (
        <p className="hint">{t("channels.opening_note", { amount: fmt.sats(ours) })}</p>
      ) : null}
      {link.kind === "offline" && link.since !== null ? (
        <p className="hint">{t("channels.offline_since", { date: fmt.dateTime(link.since) })}</p>
      ) : null}
      {link.kind === "offline" && !onClose ? <p className="hint">{t("channels.force_close_later")}</p> : null}
      <div className="row">
        {/* A funding that never reached the chain has nothing to show on an explorer. */}
        {txid && !channel.never_opened ? <ExplorerLink txid={txid} /> : null}
        {onClose ? (
          <button type="button" className="button" onClick={onClose}>
            {channel.never_opened
              ? t("admin.abandon")
              : link.kind === "online"
                ? t("channels.close")
                : t("channels.force_close")}
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** Lightning channels (spec 1 "Channels"): totals, online and offline lists, close with confirmation. */
export function Channels() {
  const { t } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const toast = useToast();
  const errorText = useErrorText();
  const channels = useView("channels") ?? [];
  const live = useView("live");
  const [closing, setClosing] = useState<{
    channel: ChannelView;
    force: boolean;
    abandon?: boolean;
  } | null>(null);
  const usable = new Set(live?.usable_channels ?? []);
  // While the node runs or starts, a channel not usable is connecting until its peer has failed a while.
  const running = live?.lightning === "ready" || live?.lightning === "starting";
  const peers = running ? (live?.peer_status ?? []) : undefined;
  const groups = channelGroups(channels, usable, peers);
  const now = Date.now();
  const sinceOf = (c: ChannelView) => peers?.find((p) => p.pubkey === c.peer)?.since ?? null;
  const totals = useView("channel_totals");

  const close = async () => {
    if (!closing) return;
    const { channel, force, abandon } = closing;
    setClosing(null);
    try {
      await client.dispatch({ _tag: "CloseChannel", channelId: channel.channel_id, force, abandon });
      toast({ title: t("channels.closing") });
    } catch (e) {
      toast({ title: t("common.error"), description: errorText(e), isError: true });
    }
  };

  const linkOf = (c: ChannelView, kind: PeerShown["kind"]): PeerShown =>
    kind === "offline" ? { kind, since: sinceOf(c) } : kind === "online" ? { kind } : { kind };
  /** Close for a connected channel; Force close only for one offline long enough (and the node running). */
  const closer = (c: ChannelView, link: PeerShown) => {
    if (c.opening || link.kind === "connecting") return undefined;
    if (link.kind === "online") return () => setClosing({ channel: c, force: false });
    if (link.since === null || !forceCloseOffered(link.since, now)) return undefined;
    return () => setClosing({ channel: c, force: true });
  };
  const words = CLOSE_WORDS[closing?.abandon ? "abandon" : closing?.force ? "force" : "close"];
  const list = (title: string, rows: ChannelView[], kind: PeerShown["kind"]) => (
    <details open>
      <summary>
        {title} ({rows.length})
      </summary>
      <ul className="channels">
        {rows.map((c) => {
          const link = linkOf(c, kind);
          return <ChannelRow key={c.channel_id} channel={c} link={link} onClose={closer(c, link)} />;
        })}
      </ul>
    </details>
  );

  return (
    <Screen title={t("settings.channels")}>
      <dl className="details">
        <dt>{t("channels.total_outbound")}</dt>
        <dd>{t("channels.sats", { amount: fmt.sats(totals?.balance ?? 0n) })}</dd>
        <dt>{t("channels.total_reserve")}</dt>
        <dd>{t("channels.sats", { amount: fmt.sats(totals?.reserve ?? 0n) })}</dd>
        <dt>{t("channels.total_inbound")}</dt>
        <dd>{t("channels.sats", { amount: fmt.sats(totals?.inbound ?? 0n) })}</dd>
        {totals && totals.pending > 0n ? (
          <>
            <dt>{t("channels.total_pending")}</dt>
            <dd>{t("channels.sats", { amount: fmt.sats(totals.pending) })}</dd>
          </>
        ) : null}
      </dl>
      <p>{t("channels.count", { count: channels.length })}</p>
      <InterruptedOpens />
      {channels.length === 0 ? (
        <p>
          {t("channels.none")}{" "}
          <Link className="link" href="/swap">
            {t("channels.swap")}
          </Link>
        </p>
      ) : (
        <>
          {groups.opening.length > 0 ? list(t("channels.opening"), groups.opening, "connecting") : null}
          {list(t("channels.online"), groups.online, "online")}
          {groups.connecting.length > 0
            ? list(t("channels.connecting"), groups.connecting, "connecting")
            : null}
          {list(t("channels.offline"), groups.offline, "offline")}
          {groups.never_opened.length > 0 ? (
            <details open>
              <summary>
                {t("channels.never_opened")} ({groups.never_opened.length})
              </summary>
              <ul className="channels">
                {groups.never_opened.map((c) => (
                  <ChannelRow
                    key={c.channel_id}
                    channel={c}
                    link={{ kind: "offline", since: null }}
                    onClose={() => setClosing({ channel: c, force: false, abandon: true })}
                  />
                ))}
              </ul>
            </details>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={closing !== null}
        title={t(words.title)}
        message={t(words.confirm)}
        confirmLabel={t(words.title)}
        onConfirm={() => void close()}
        onCancel={() => setClosing(null)}
      />
    </Screen>
  );
}
