import { useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import type { PeerRow } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import type { ChannelView } from "../../projections";
import { BackControl } from "../../ui/BackControl";
import { ConfirmDialog } from "../../ui/Dialog";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { truncateMiddle } from "../../ui/format";
import { normaliseSatsInput } from "../../ui/money";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";

type ChannelAction = { channel: ChannelView; kind: "close" | "force" | "abandon" };

const download = (text: string, fileName: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

/** The admin page (spec 2): servers, the node, peers, channels, zaps to hodl, resync, logs. */
export function Admin() {
  const { t } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const toast = useToast();
  const errorText = useErrorText();
  const config = useWalletConfig();
  const live = useView("live");
  const settings = useView("settings");
  const channels = useView("channels") ?? [];
  const [peers, setPeers] = useState<PeerRow[]>([]);
  const [peerInput, setPeerInput] = useState("");
  const [peerError, setPeerError] = useState<string | null>(null);
  const [openPeer, setOpenPeer] = useState("");
  const [openAmount, setOpenAmount] = useState("");
  const [openError, setOpenError] = useState<string | null>(null);
  const [action, setAction] = useState<ChannelAction | null>(null);
  const [busy, setBusy] = useState(false);
  const running = live?.lightning === "ready";

  const online = live?.online_peers.join(",") ?? "";
  const refreshPeers = useCallback(() => {
    // `online` changes when a peer connects or leaves: the list is read again then.
    if (!running || online === null) return setPeers([]);
    client.dispatch({ _tag: "ListPeers" }).then(setPeers, () => setPeers([]));
  }, [client, running, online]);
  useEffect(refreshPeers, [refreshPeers]);

  // The lightning service in use (it may have changed since the wallet started): the node's, else the settings'.
  const [lsp, setLsp] = useState<string | null>(
    config.lsp ?? (config.servers?.lsps_connection_string || null),
  );
  useEffect(() => {
    if (!running) return;
    client.dispatch({ _tag: "GetConfiguredLsp" }).then(
      (r) => setLsp(r.lsp || r.connectionString || null),
      () => undefined,
    );
  }, [client, running]);

  const run = async (f: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await f();
      if (done) toast({ title: done });
    } catch (e) {
      toast({ title: t("common.error"), description: errorText(e), isError: true });
    } finally {
      setBusy(false);
      refreshPeers();
    }
  };

  const connect = async () => {
    setPeerError(null);
    try {
      await client.dispatch({ _tag: "ConnectPeer", address: peerInput.trim() });
      setPeerInput("");
      refreshPeers();
    } catch (e) {
      setPeerError(errorText(e));
    }
  };

  const open = async () => {
    setOpenError(null);
    if (openPeer.trim() === "" || openAmount === "") return setOpenError(t("admin.open_required"));
    try {
      await client.dispatch({ _tag: "OpenChannel", peer: openPeer.trim(), amountSats: BigInt(openAmount) });
      toast({ title: t("swap.success_title") });
      setOpenAmount("");
    } catch (e) {
      setOpenError(errorText(e));
    }
  };

  const confirmAction = () => {
    if (!action) return;
    const { channel, kind } = action;
    setAction(null);
    void run(
      () =>
        client.dispatch({
          _tag: "CloseChannel",
          channelId: channel.channel_id,
          force: kind === "force",
          abandon: kind === "abandon",
        }),
      t("channels.closing"),
    );
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.admin")}</h1>

      <section className="card column" aria-labelledby="admin-servers">
        <h2 id="admin-servers">{t("admin.servers")}</h2>
        <dl className="details">
          <dt>{t("admin.lsp")}</dt>
          <dd>{lsp ?? t("admin.none")}</dd>
          <dt>{t("admin.proxy")}</dt>
          <dd>{config.proxy ?? t("admin.none")}</dd>
          <dt>{t("admin.esplora")}</dt>
          <dd>{config.esplora}</dd>
        </dl>
        <Link className="link" href="/settings/servers">
          {t("admin.edit_servers")}
        </Link>
      </section>

      <section className="card column" aria-labelledby="admin-node">
        <h2 id="admin-node">{t("admin.node")}</h2>
        <p>
          {t("admin.node_status")}: {t(`admin.status_${live?.lightning ?? "off"}`)}
        </p>
        {live?.node_id ? (
          <p>
            <code title={live.node_id}>{truncateMiddle(live.node_id)}</code>
          </p>
        ) : null}
        {live?.lightning_error ? <ErrorBox text={live.lightning_error} /> : null}
        <div className="row">
          {running ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void run(() => client.dispatch({ _tag: "StopLightning" }))}
            >
              {t("admin.stop_node")}
            </button>
          ) : (
            <button
              type="button"
              className="button"
              disabled={busy || live?.lightning === "starting" || live?.lightning === "safe_mode"}
              onClick={() => void run(() => client.dispatch({ _tag: "StartLightning" }))}
            >
              {t("admin.start_node")}
            </button>
          )}
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                const { lines } = await client.dispatch({ _tag: "GetLogs" });
                download(lines.join("\n"), "mutiny-logs.txt");
              })
            }
          >
            {t("admin.download_logs")}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void run(() => client.dispatch({ _tag: "ResyncOnchain" }), t("admin.resynced"))}
          >
            {t("admin.resync")}
          </button>
        </div>
        <label className="check-row">
          <input
            type="checkbox"
            checked={settings?.should_zap_hodl ?? false}
            onChange={(e) =>
              void run(() => client.dispatch({ _tag: "SetZapHodl", enabled: e.target.checked }))
            }
          />
          {t("admin.zap_hodl")}
        </label>
      </section>

      <section className="card column" aria-labelledby="admin-peers">
        <h2 id="admin-peers">{t("admin.peers")}</h2>
        <ul className="column">
          {peers.map((p) => (
            <li key={p.pubkey} className="row">
              <code title={p.address ?? p.pubkey}>{truncateMiddle(p.pubkey)}</code>
              <span>{p.connected ? t("channels.online") : t("channels.offline")}</span>
              {p.connected ? (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() =>
                    void run(() => client.dispatch({ _tag: "DisconnectPeer", pubkey: p.pubkey }))
                  }
                >
                  {t("admin.disconnect")}
                </button>
              ) : null}
              <button
                type="button"
                className="button button-small"
                onClick={() => void run(() => client.dispatch({ _tag: "DeletePeer", pubkey: p.pubkey }))}
              >
                {t("admin.delete")}
              </button>
            </li>
          ))}
        </ul>
        <form
          className="column"
          onSubmit={(e) => {
            e.preventDefault();
            void connect();
          }}
        >
          <label htmlFor="admin-peer">{t("admin.connect_peer")}</label>
          <input
            id="admin-peer"
            value={peerInput}
            placeholder="pubkey@host:port"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setPeerInput(e.target.value)}
          />
          <ErrorBox text={peerError} />
          <button type="submit" className="button" disabled={!running}>
            {t("admin.connect")}
          </button>
        </form>
      </section>

      <section className="card column" aria-labelledby="admin-channels">
        <h2 id="admin-channels">{t("admin.channels")}</h2>
        <ul className="column">
          {channels.map((c) => (
            <li key={c.channel_id} className="column">
              <span>
                <code title={c.channel_id}>{truncateMiddle(c.channel_id)}</code>{" "}
                {t("channels.size", { amount: fmt.sats(c.size) })}
              </span>
              <div className="row">
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setAction({ channel: c, kind: "close" })}
                >
                  {t("channels.close")}
                </button>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setAction({ channel: c, kind: "force" })}
                >
                  {t("channels.force_close")}
                </button>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setAction({ channel: c, kind: "abandon" })}
                >
                  {t("admin.abandon")}
                </button>
              </div>
            </li>
          ))}
        </ul>
        <form
          className="column"
          onSubmit={(e) => {
            e.preventDefault();
            void open();
          }}
        >
          <label htmlFor="admin-open-peer">{t("swap.peer")}</label>
          <input
            id="admin-open-peer"
            value={openPeer}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setOpenPeer(e.target.value)}
          />
          <label htmlFor="admin-open-amount">{t("swap.amount")}</label>
          <input
            id="admin-open-amount"
            inputMode="numeric"
            value={openAmount}
            onChange={(e) => setOpenAmount(normaliseSatsInput(e.target.value))}
          />
          <ErrorBox text={openError} />
          <button type="submit" className="button" disabled={!running}>
            {t("swap.confirm")}
          </button>
        </form>
      </section>

      <ConfirmDialog
        open={action !== null}
        title={
          action
            ? t(
                action.kind === "abandon"
                  ? "admin.abandon"
                  : action.kind === "force"
                    ? "channels.force_close"
                    : "channels.close",
              )
            : ""
        }
        message={
          action
            ? t(
                action.kind === "abandon"
                  ? "admin.abandon_confirm"
                  : action.kind === "force"
                    ? "channels.force_close_confirm"
                    : "channels.close_confirm",
              )
            : ""
        }
        danger={action?.kind !== "close"}
        onConfirm={confirmAction}
        onCancel={() => setAction(null)}
      />
    </main>
  );
}
