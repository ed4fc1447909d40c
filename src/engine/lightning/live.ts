import { towerFor } from "../tower/client";
import { closedFor, WALLET_TO_SELF_DELAY } from "./delay";
import { type NewEvent, newEvent } from "../../events/make";
import { makeEsplora } from "../onchain/esplora";
import { EsploraChain } from "./chain";
import { GossipSync } from "./gossip-sync";
import { fetchScorer } from "./scorer";
import { snapshotOf } from "./channel-snapshot";
import { INVOICE_EXPIRY_SECS, LightningNode, type NodeEvent } from "./node";
import type { FetchFn } from "../http/bounded";
import { fetchLspInfo, postToLsp } from "./lsp-http";
import { Lsps2Client } from "./lsps2";
import { FAILURE_TEXT } from "./policy";
import { lightningSeed } from "./seed";
import {
  openWebSocketPipe,
  type PeerAddress,
  parsePeerAddress,
  peerSocketUrl,
  type WebSocketFactory,
} from "./socket";
import { openRemote } from "./remote";
import type { PreparedRequest } from "../storage/vss-client";

export * from "./live-types";
import type {
  LspInfo,
  LspSettings,
  LightningDeps,
  LightningHooks,
  LightningServers,
  LightningPort,
} from "./live-types";
import { LspChangeError } from "./live-types";

/** Lines kept for the logs download. */
export const LOG_LINES = 2000;

/** How long a stop waits for a write the storage server has not taken yet, before giving it up. */
export const STORAGE_STOP_WAIT_MS = 10_000;

/** How often the node looks at the chain on its own. */
export const CHAIN_SYNC_MS = 15_000;

export { snapshotOf };

/** The engine on a wallet's servers, with the platform's WebSocket and fetch (browser worker or Node). */
export const startLightningOn = (
  servers: LightningServers,
  hooks: LightningHooks,
  platform: {
    readonly makeSocket: WebSocketFactory;
    readonly fetch: FetchFn;
    readonly homeShown?: () => Promise<void>;
    readonly lockRelease?: (request: PreparedRequest | null) => void;
  },
): Promise<LightningPort> =>
  startLightning({
    ...hooks,
    network: servers.network,
    esplora: makeEsplora(servers.esplora, platform.fetch),
    proxy: servers.proxy,
    lsp: servers.lsp,
    lsps: servers.servers?.lsps_connection_string
      ? { connectionString: servers.servers.lsps_connection_string, token: servers.servers.lsps_token }
      : null,
    makeSocket: platform.makeSocket,
    fetch: platform.fetch,
    rgs: servers.servers?.rgs || null,
    storage: servers.servers?.storage || null,
    tower: servers.servers?.tower || null,
    scorer: servers.scorer ?? null,
    ...(platform.homeShown ? { homeShown: platform.homeShown } : {}),
    ...(platform.lockRelease ? { onLockRelease: platform.lockRelease } : {}),
  });

export const startLightning = async (deps: LightningDeps): Promise<LightningPort> => {
  deps.onStage?.("restoring");
  const lines: string[] = [];
  const log = (level: string, message: string) => {
    lines.push(`${new Date().toISOString()} ${level.toUpperCase()} ${message}`);
    if (lines.length > LOG_LINES) lines.splice(0, lines.length - LOG_LINES);
  };
  const chain = new EsploraChain(deps.esplora, log, () => deps.onChainActivity());
  /** The last block the saved node had seen (null: a new node). */
  let lastSeen: number | null = null;
  const fundings = new Map<string, bigint>();
  let lspInfo: Promise<LspInfo | null> | null = null;
  let trustedPeer: string | null = null;
  let settings: LspSettings =
    deps.lspSettings?.() ??
    (deps.lsps?.connectionString
      ? { lsp: null, connectionString: deps.lsps.connectionString, token: deps.lsps.token || null }
      : { lsp: deps.lsp, connectionString: null, token: null });
  let lsps2: Lsps2Client | null = null;
  /** The LSPS2 LSP's node, from its connection string. */
  const lspsPeer = (s: LspSettings): PeerAddress | null =>
    s.connectionString ? parsePeerAddress(s.connectionString.trim()) : null;
  const infoOf = (s: LspSettings): Promise<LspInfo | null> => {
    if (s.lsp) return fetchLspInfo(s.lsp, deps.fetch);
    const peer = lspsPeer(s);
    return Promise.resolve(peer ? { pubkey: peer.pubkey, address: peer } : null);
  };
  const lsp = () => {
    lspInfo ??= infoOf(settings).then((i) => {
      // Zero-confirmation channels are accepted from the configured LSP only.
      trustedPeer = i?.pubkey ?? null;
      return i;
    });
    lspInfo.catch(() => {
      lspInfo = null;
    });
    return lspInfo;
  };
  void lsp().catch(() => undefined);
  /** What the node asks of its partners: two weeks, or the shorter delay the owner accepted for this LSP. */
  const toSelfDelay = deps.toSelfDelay?.(lspsPeer(settings)?.pubkey ?? null) ?? WALLET_TO_SELF_DELAY;
  const scorer = fetchScorer(deps.scorer, deps.fetch, log);

  /** Channel opens waiting for their funding transaction, by the id `openChannel` answered. */
  const funding = new Map<string, { funded: (id: string) => void; failed: (why: string) => void }>();
  // Filled in right after start; events cannot arrive before `start` returns.
  let node: LightningNode | null = null;
  let lastSnapshot = JSON.stringify(deps.knownChannels());
  const record = (events: NewEvent[]) => {
    if (events.length > 0) deps.record(events);
  };
  const snapshot = (): NewEvent[] => {
    if (!node) return [];
    const channels = snapshotOf(node.channels());
    const json = JSON.stringify(channels);
    if (json === lastSnapshot) return [];
    lastSnapshot = json;
    return [newEvent("ln.channels_changed", { channels })];
  };
  const onEvent = (e: NodeEvent) => {
    switch (e.type) {
      case "changed":
        record(snapshot());
        deps.onLive();
        return;
      case "payment_received":
        record([
          newEvent("ln.payment_received", {
            payment_hash: e.paymentHash,
            amount_msat: e.amountMsat.toString(),
          }),
          ...snapshot(),
        ]);
        return;
      case "payment_sent":
        record([
          newEvent("ln.payment_sent", {
            payment_id: e.paymentId,
            payment_hash: e.paymentHash,
            preimage: e.preimage,
            fee_msat: e.feeMsat.toString(),
          }),
          ...snapshot(),
        ]);
        return;
      case "payment_path_succeeded":
        record([newEvent("ln.payment_path_succeeded", { payment_id: e.paymentId, hops: e.hops })]);
        return;
      case "payment_failed":
        record([newEvent("ln.payment_failed", { payment_id: e.paymentId, reason: FAILURE_TEXT[e.reason] })]);
        return;
      case "channel_pending": {
        const c = node?.channels().find((x) => x.channelId === e.channelId);
        for (const id of [e.formerTemporaryId, e.channelId]) if (id) funding.get(id)?.funded(e.channelId);
        record([
          newEvent("ln.channel_pending", {
            channel_id: e.channelId,
            peer: e.peer,
            outpoint: e.outpoint,
            capacity_sats: (c?.sizeSats ?? 0n).toString(),
            fee_sats: (fundings.get(e.fundingTxid) ?? 0n).toString(),
            is_outbound: c?.isOutbound ?? true,
            labels: [],
            to_self_delay: toSelfDelay,
          }),
          ...snapshot(),
        ]);
        deps.onChainActivity();
        return;
      }
      case "channel_closed": {
        funding.get(e.channelId)?.failed(e.reason);
        const known = deps.knownChannels().find((c) => c.channel_id === e.channelId);
        record([
          newEvent("ln.channel_closed", {
            channel_id: e.channelId,
            peer: e.peer,
            outpoint: e.outpoint,
            reason: e.reason,
            capacity_sats: e.capacitySats === null ? null : e.capacitySats.toString(),
            balance_sats: known ? (BigInt(known.balance) + BigInt(known.reserve)).toString() : "0",
          }),
          ...snapshot(),
        ]);
        // A funding signed here that never went out (the open failed) must leave the on-chain log soon.
        deps.onChainActivity();
        return;
      }
      case "payment_refused":
        record([
          newEvent("ln.payment_refused", {
            payment_hash: e.paymentHash,
            amount_msat: e.amountMsat.toString(),
            skimmed_msat: e.skimmedMsat.toString(),
            promised_msat: deps.promisedLspFee?.(e.paymentHash)?.toString() ?? null,
          }),
        ]);
        return;
      case "revoked_state_seen":
        record([
          newEvent("ln.channel_breached", { channel_id: e.channelId, claimable_sats: `${e.claimableSats}` }),
        ]);
        return;
      case "outputs_swept":
        record([
          newEvent("ln.outputs_swept", {
            txid: e.txid,
            sats: e.sats.toString(),
            channel_ids: [...e.channelIds],
            claims_left_sats: e.claimsLeftSats.toString(),
          }),
        ]);
        deps.onChainActivity();
        return;
      default:
        return;
    }
  };

  // With a storage server, this device takes the device lock and the node runs on the channel state mirrored
  // there: nothing it says to the world goes out before the state is both here and there.
  const remote = deps.storage ? await openRemote(deps, log) : null;
  // The node's own timers, ended with it (also when the lock is lost while it runs).
  let timer: ReturnType<typeof setInterval> | undefined;
  let gossip: GossipSync | null = null;
  const stopForStorage = (message: string) => {
    remote?.abandon();
    clearInterval(timer);
    gossip?.stop();
    log("error", message);
    void node?.stop().catch(() => undefined);
    deps.onFailed?.(message);
  };
  remote?.onLost(stopForStorage);

  // The node counts as running only after its first chain sync (LightningNode.start awaits it): with a
  // stale best block a payment's HTLC expiries would be set too low, and a close the peer forced while the
  // wallet was shut must be seen before new payments go over the channel. Home shows the stages meanwhile.
  // A watchtower (towerFor) is handed each revoked state's justice transaction, sealed.
  const tower = towerFor(deps.tower, lightningSeed(deps.mnemonic), deps.fetch, log);
  const starting = LightningNode.start({
    ...(tower ? { onJustice: (txid: Uint8Array, tx: Uint8Array) => tower.add(txid, tx) } : {}),
    seed: lightningSeed(deps.mnemonic),
    network: deps.network,
    store: remote?.storage.store ?? deps.store,
    chain,
    log,
    role: "wallet",
    toSelfDelay,
    scorer,
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, deps.proxy), deps.makeSocket),
    fundChannel: async (script, sats) => {
      const f = await deps.fund(script, sats);
      fundings.set(f.txid, f.feeSats);
      return f.tx;
    },
    sweepScript: deps.sweepScript,
    onEvent,
    trustedZeroConfPeer: () => trustedPeer,
    onLastSeen: (height) => {
      lastSeen = height;
    },
    onRestored: () => deps.onStage?.("syncing"),
    onPeers: () => deps.onLive(),
    onFatal: (message) => deps.onFailed?.(message),
    // Nothing may be kept back of a payment to us, except by the LSP that opened its channel: no more than
    // it promised for that payment.
    claimPolicy: (hash, _amountMsat, skimmedMsat) =>
      skimmedMsat === 0n || skimmedMsat <= (deps.promisedLspFee?.(hash) ?? -1n),
  });
  node = await starting.catch(async (e: unknown) => {
    await remote?.storage.release();
    throw e;
  });
  remote?.storage.keep((lost) => stopForStorage(lost.message));
  record(snapshot());
  void closedFor(lastSeen, () => deps.esplora.tipHeight()).then((c) => c && deps.onClosedFor?.(c));
  const started = node;
  const clientFor = (s: LspSettings): Lsps2Client | null => {
    const peer = lspsPeer(s);
    return peer ? new Lsps2Client(started, peer, s.token, Date.now, toSelfDelay) : null;
  };
  lsps2 = clientFor(settings);
  // An LSP's invoice made before this start may still be paid (LSPS2's, or an HTTP LSP's wrapped one): the
  // LSP opens its channel only to a wallet that is online, so stay connected to it (HTTP: its node, once
  // its info is known) for as long as such an invoice can be.
  void lsp()
    .then((info) => info && started.keepConnected(info.pubkey, Date.now() + INVOICE_EXPIRY_SECS * 1000))
    .catch(() => undefined);
  const sync = () => started.sync().catch((e) => log("warn", `chain sync: ${String(e)}`));
  timer = setInterval(() => void sync(), CHAIN_SYNC_MS);
  // Funds of closed channels a restore from the words cannot know of, found by the seed's scripts.
  void started.recoverStaticOutputs().catch((e) => log("warn", `recovery scan: ${String(e)}`));
  // The graph syncs once the node is up, home is usable and the stored graph is read (never holding either
  // back), then hourly.
  gossip = deps.rgs ? new GossipSync(started, deps.rgs, deps.fetch, log) : null;
  gossip?.startAfter(Promise.all([deps.homeShown?.(), started.routesRead]).then(() => undefined));
  return {
    gossip,
    node: started,
    remote: remote
      ? {
          sealed: remote.storage.sealed,
          url: remote.storage.url,
          from: remote.storage.from,
          held: remote.storage.held,
        }
      : null,
    logs: () => [...lines],
    lsp,
    // An LSP's refusal in its own words stays in the logs; the owner is shown the catalogue's.
    lspPost: (path, body, schema) =>
      postToLsp(settings.lsp, deps.fetch, path, body, schema).catch((e: unknown) => {
        log("warn", `LSP ${path}: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }),
    lsps2: () => lsps2,
    lspSettings: () => settings,
    toSelfDelay,
    changeLsp: async (next) => {
      const clean = (v: string | null) => (v?.trim() ? v.trim() : null);
      const s: LspSettings = {
        lsp: clean(next.lsp),
        connectionString: clean(next.connectionString),
        token: clean(next.token),
      };
      let client: Lsps2Client | null = null;
      let info: LspInfo | null = null;
      try {
        if (s.connectionString) {
          client = clientFor(s);
          if (!client) throw new Error("The connection string is not pubkey@host:port");
          await client.menu();
          info = { pubkey: client.lsp.pubkey, address: client.lsp };
        } else if (s.lsp) {
          info = await fetchLspInfo(s.lsp, deps.fetch);
        }
      } catch (e) {
        log("warn", `LSP change refused: ${String(e)}`);
        throw new LspChangeError("Failed to make a request to the LSP.");
      }
      settings = s;
      lsps2 = client;
      lspInfo = Promise.resolve(info);
      trustedPeer = info?.pubkey ?? null;
    },
    connect: (peer) => started.connectPeer(peer),
    whenFunded: (temporaryId, timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        let deadline: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          clearTimeout(deadline);
          funding.delete(temporaryId);
        };
        deadline = setTimeout(() => {
          done();
          reject(new Error("The peer did not complete the channel open in time."));
        }, timeoutMs);
        funding.set(temporaryId, {
          funded: (id) => {
            done();
            resolve(id);
          },
          failed: (why) => {
            done();
            reject(new Error(why));
          },
        });
      }),
    sync,
    stop: async () => {
      clearInterval(timer);
      gossip?.stop();
      if (!remote) return started.stop();
      // A last write waiting for an unreachable storage server is given up after a while, then the lock.
      const stopping = started.stop();
      const waited = setTimeout(() => remote.storage.stopWrites(), STORAGE_STOP_WAIT_MS);
      await stopping.finally(() => clearTimeout(waited));
      await remote.storage.release();
    },
  };
};
