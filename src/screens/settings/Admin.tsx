import { useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import type { PeerRow } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import type { ChannelView } from "../../projections";
import { BackControl } from "../../ui/BackControl";
import { ConfirmDialog } from "../../ui/Dialog";
import { useWalletConfig } from "../../ui/config";
import { download } from "../../ui/download";
import { ErrorBox } from "../../ui/errors";
import { Button, Form, PeerField, TextField, useAction, useToastFailure } from "../../ui/form";
import { truncateMiddle } from "../../ui/format";
import { normaliseSatsInput } from "../../ui/money";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { adminActions, CLOSE_WORDS, type CloseKind } from "./channel-actions";

type ChannelAction = { channel: ChannelView; kind: CloseKind };

const stateRank = (c: ChannelView) => (c.never_opened ? 2 : c.opening ? 1 : 0);

/** The admin page (spec 2): servers, the node, peers, channels, zaps to hodl, resync, logs. */
export function Admin() {
  const { t } = useI18n();
  const fmt = useFormat();
  const client = useWallet();
  const toast = useToast();
  const toastFailure = useToastFailure();
  const config = useWalletConfig();
  const live = useView("live");
  const settings = useView("settings");
  // Open channels first, then those opening, then those that never opened: the same order on every visit.
  const channels = [...(useView("channels") ?? [])].sort((a, b) => stateRank(a) - stateRank(b));
  const [peers, setPeers] = useState<PeerRow[]>([]);
  const [action, setAction] = useState<ChannelAction | null>(null);
  const { busy, run: act } = useAction();
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

  // Failures show as a toast; the peers are read again after each request.
  const run = (f: () => Promise<unknown>, done?: string) =>
    act(
      async () => {
        await f();
        if (done) toast({ title: done });
      },
      { explain: toastFailure },
    ).then(refreshPeers);

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
            <Button disabled={busy} onClick={() => run(() => client.dispatch({ _tag: "StopLightning" }))}>
              {t("admin.stop_node")}
            </Button>
          ) : (
            <Button
              disabled={busy || live?.lightning === "starting" || live?.lightning === "safe_mode"}
              onClick={() => run(() => client.dispatch({ _tag: "StartLightning" }))}
            >
              {t("admin.start_node")}
            </Button>
          )}
          <Button
            disabled={busy}
            onClick={() =>
              run(async () => {
                const { lines } = await client.dispatch({ _tag: "GetLogs" });
                download(lines.join("\n"), "mutiny-logs.txt");
              })
            }
          >
            {t("admin.download_logs")}
          </Button>
          <Button
            disabled={busy}
            onClick={() => run(() => client.dispatch({ _tag: "ResyncOnchain" }), t("admin.resynced"))}
          >
            {t("admin.resync")}
          </Button>
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
        <ul className="item-list">
          {peers.map((p) => (
            <li key={p.pubkey}>
              <code title={p.address ?? p.pubkey}>{truncateMiddle(p.pubkey)}</code>
              <span>{p.connected ? t("channels.online") : t("channels.offline")}</span>
              {p.connected ? (
                <Button
                  small
                  onClick={() => run(() => client.dispatch({ _tag: "DisconnectPeer", pubkey: p.pubkey }))}
                >
                  {t("admin.disconnect")}
                </Button>
              ) : null}
              <Button
                small
                onClick={() => run(() => client.dispatch({ _tag: "DeletePeer", pubkey: p.pubkey }))}
              >
                {t("admin.delete")}
              </Button>
            </li>
          ))}
        </ul>
        <ConnectPeerForm running={running} onConnected={refreshPeers} />
      </section>

      <section className="card column" aria-labelledby="admin-channels">
        <h2 id="admin-channels">{t("admin.channels")}</h2>
        <ul className="item-list">
          {channels.map((c) => (
            <li key={c.channel_id} className="admin-channel">
              <div className="row">
                <span>{t("channels.size", { amount: fmt.sats(c.size) })}</span>
                {c.never_opened || c.opening ? (
                  <span className={c.never_opened ? "badge badge-danger" : "badge"}>
                    {t(c.never_opened ? "channels.state_never_opened" : "channels.opening")}
                  </span>
                ) : null}
              </div>
              <code title={c.channel_id}>{truncateMiddle(c.channel_id)}</code>
              <div className="row">
                {adminActions(c).map((kind) => (
                  <Button small key={kind} onClick={() => setAction({ channel: c, kind })}>
                    {t(CLOSE_WORDS[kind].title)}
                  </Button>
                ))}
              </div>
            </li>
          ))}
        </ul>
        <OpenChannelForm running={running} />
      </section>

      <ConfirmDialog
        open={action !== null}
        title={action ? t(CLOSE_WORDS[action.kind].title) : ""}
        message={action ? t(CLOSE_WORDS[action.kind].confirm) : ""}
        danger={action?.kind !== "close"}
        onConfirm={confirmAction}
        onCancel={() => setAction(null)}
      />
    </main>
  );
}

/** Connects to a peer by `pubkey@host:port`; `onConnected` reads the peers again. */
function ConnectPeerForm({ running, onConnected }: { running: boolean; onConnected: () => void }) {
  const { t } = useI18n();
  const client = useWallet();
  const [address, setAddress] = useState("");
  const { error, run } = useAction();
  const connect = () =>
    run(async () => {
      await client.dispatch({ _tag: "ConnectPeer", address: address.trim() });
      setAddress("");
      onConnected();
    });
  return (
    <Form onSubmit={connect}>
      <PeerField id="admin-peer" label={t("admin.connect_peer")} value={address} onValue={setAddress} />
      <ErrorBox text={error} />
      <button type="submit" className="button" disabled={!running}>
        {t("admin.connect")}
      </button>
    </Form>
  );
}

/** Opens a channel of an amount to a peer. */
function OpenChannelForm({ running }: { running: boolean }) {
  const { t } = useI18n();
  const client = useWallet();
  const toast = useToast();
  const [peer, setPeer] = useState("");
  const [amount, setAmount] = useState("");
  const { error, setError, run } = useAction();
  const open = () => {
    if (peer.trim() === "" || amount === "") return setError(t("admin.open_required"));
    return run(async () => {
      await client.dispatch({ _tag: "OpenChannel", peer: peer.trim(), amountSats: BigInt(amount) });
      toast({ title: t("swap.success_title") });
      setAmount("");
    });
  };
  return (
    <Form onSubmit={open}>
      <TextField id="admin-open-peer" label={t("swap.peer")} value={peer} onValue={setPeer} />
      <label htmlFor="admin-open-amount">{t("swap.amount")}</label>
      <input
        id="admin-open-amount"
        inputMode="numeric"
        value={amount}
        onChange={(e) => setAmount(normaliseSatsInput(e.target.value))}
      />
      <ErrorBox text={error} />
      <button type="submit" className="button" disabled={!running}>
        {t("swap.confirm")}
      </button>
    </Form>
  );
}
