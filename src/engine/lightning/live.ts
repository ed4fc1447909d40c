/**
 * The wallet's lightning engine: the node wired to the wallet — keys from the seed, channels funded by the
 * on-chain wallet, closes swept back to it, state in the wallet's store, and every change recorded as
 * events. Handlers reach it through `LightningPort`.
 */
import { type NewEvent, newEvent } from "../../events/make";
import type { ChannelSnapshot, Network } from "../../events/types";
import { type EsploraClient, makeEsplora } from "../onchain/esplora";
import { EsploraChain } from "./chain";
import { type ChannelInfo, LightningNode, type NodeEvent } from "./node";
import { postToLsp } from "./lsp-http";
import { FAILURE_TEXT } from "./policy";
import { lightningSeed } from "./seed";
import { openWebSocketPipe, type PeerAddress, peerSocketUrl, type WebSocketFactory } from "./socket";
import type { BlobStore } from "./store";

/** Lines kept for the logs download. */
export const LOG_LINES = 2000;

/** The LSP's node, as its `GET /api/v1/info` describes it. */
export interface LspInfo {
  readonly pubkey: string;
  readonly address: PeerAddress;
}

export interface Funding {
  readonly tx: Uint8Array;
  readonly txid: string;
  readonly feeSats: bigint;
}

export interface LightningDeps {
  readonly mnemonic: string;
  readonly network: Network;
  readonly esplora: EsploraClient;
  readonly store: BlobStore;
  /** The WebSocket-to-TCP proxy, or null to dial peers' WebSockets directly. */
  readonly proxy: string | null;
  /** The configured LSP's base URL, or null. */
  readonly lsp: string | null;
  readonly makeSocket: WebSocketFactory;
  readonly fetch: typeof fetch;
  /** Signs (without broadcasting) an on-chain payment of `sats` to `script`, recording it. */
  readonly fund: (script: Uint8Array, sats: bigint) => Promise<Funding>;
  /** A fresh script of the on-chain wallet for swept outputs. */
  readonly sweepScript: () => Promise<Uint8Array>;
  /** Appends events to the log (in order, after the command running now). */
  readonly record: (events: readonly NewEvent[]) => void;
  /** The channels the log knows, to record a change only when there is one. */
  readonly knownChannels: () => readonly ChannelSnapshot[];
  /** Something the engine did touched the chain (a sweep, a funding): the on-chain wallet should look. */
  readonly onChainActivity: () => void;
  /** Live peer and node state changed (not an event). */
  readonly onLive: () => void;
  /** The node, starting, got as far as restoring its channels, then as its first chain sync. */
  readonly onStage?: (stage: "restoring" | "syncing") => void;
}

/** What the wallet's host gives the engine: the seed, its store, and the on-chain wallet. */
export type LightningHooks = Pick<
  LightningDeps,
  | "mnemonic"
  | "store"
  | "fund"
  | "sweepScript"
  | "record"
  | "knownChannels"
  | "onChainActivity"
  | "onLive"
  | "onStage"
>;

/** The servers a wallet's engine talks to (its `WalletConfig`). */
export interface LightningServers {
  readonly network: Network;
  readonly esplora: string;
  readonly proxy: string | null;
  readonly lsp: string | null;
}

export interface LightningPort {
  readonly node: LightningNode;
  readonly logs: () => string[];
  /** The LSP's node, fetched once; null when none is configured. */
  readonly lsp: () => Promise<LspInfo | null>;
  /**
   * POSTs JSON to the configured LSP's HTTP API (`path` under `{lsp}/api/v1/`); answers its JSON. Throws
   * `LspRequestError` with the LSP's own words when it refuses, or when none is configured or reachable.
   */
  readonly lspPost: (path: string, body: unknown) => Promise<Record<string, unknown>>;
  readonly connect: (peer: PeerAddress) => Promise<void>;
  /** Brings the node up to the chain tip now (also done every `CHAIN_SYNC_MS`). */
  readonly sync: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** How often the node looks at the chain on its own. */
export const CHAIN_SYNC_MS = 15_000;

export const snapshotOf = (channels: readonly ChannelInfo[]): ChannelSnapshot[] =>
  channels.map((c) => ({
    channel_id: c.channelId,
    peer: c.peer,
    outpoint: c.outpoint,
    size: c.sizeSats.toString(),
    balance: c.outboundSats.toString(),
    reserve: c.reserveSats.toString(),
    inbound: c.inboundSats.toString(),
    // Whether the peer is online right now is live state, not history: a ready channel counts as usable.
    is_usable: c.isReady,
    is_ready: c.isReady,
  }));

export const fetchLspInfo = async (lsp: string, fetchFn: typeof fetch): Promise<LspInfo> => {
  const r = await fetchFn(`${lsp.replace(/\/+$/, "")}/api/v1/info`);
  if (!r.ok) throw new Error("Failed to make a request to the LSP.");
  const info = (await r.json()) as {
    pubkey?: string;
    connection_methods?: { type?: string; address?: string; port?: number }[];
  };
  const method = info.connection_methods?.find((m) => m.address && m.port);
  if (!info.pubkey || !method?.address || !method.port)
    throw new Error("Failed to make a request to the LSP.");
  return { pubkey: info.pubkey, address: { pubkey: info.pubkey, host: method.address, port: method.port } };
};

/** The engine on a wallet's servers, with the platform's WebSocket and fetch (browser worker or Node). */
export const startLightningOn = (
  servers: LightningServers,
  hooks: LightningHooks,
  platform: { readonly makeSocket: WebSocketFactory; readonly fetch: typeof fetch },
): Promise<LightningPort> =>
  startLightning({
    ...hooks,
    network: servers.network,
    esplora: makeEsplora(servers.esplora, platform.fetch),
    proxy: servers.proxy,
    lsp: servers.lsp,
    makeSocket: platform.makeSocket,
    fetch: platform.fetch,
  });

export const startLightning = async (deps: LightningDeps): Promise<LightningPort> => {
  deps.onStage?.("restoring");
  const lines: string[] = [];
  const log = (level: string, message: string) => {
    lines.push(`${new Date().toISOString()} ${level.toUpperCase()} ${message}`);
    if (lines.length > LOG_LINES) lines.splice(0, lines.length - LOG_LINES);
  };
  const chain = new EsploraChain(deps.esplora, log, () => deps.onChainActivity());
  const fundings = new Map<string, bigint>();
  let lspInfo: Promise<LspInfo | null> | null = null;
  let trustedPeer: string | null = null;
  const lsp = () => {
    lspInfo ??= (deps.lsp ? fetchLspInfo(deps.lsp, deps.fetch) : Promise.resolve(null)).then((i) => {
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
      case "payment_failed":
        record([newEvent("ln.payment_failed", { payment_id: e.paymentId, reason: FAILURE_TEXT[e.reason] })]);
        return;
      case "channel_pending": {
        const c = node?.channels().find((x) => x.channelId === e.channelId);
        record([
          newEvent("ln.channel_pending", {
            channel_id: e.channelId,
            peer: e.peer,
            outpoint: e.outpoint,
            capacity_sats: (c?.sizeSats ?? 0n).toString(),
            fee_sats: (fundings.get(e.fundingTxid) ?? 0n).toString(),
            is_outbound: c?.isOutbound ?? true,
            labels: [],
          }),
          ...snapshot(),
        ]);
        deps.onChainActivity();
        return;
      }
      case "channel_closed": {
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
        return;
      }
      case "outputs_swept":
        record([
          newEvent("ln.outputs_swept", {
            txid: e.txid,
            sats: e.sats.toString(),
            channel_ids: [...e.channelIds],
          }),
        ]);
        deps.onChainActivity();
        return;
      default:
        return;
    }
  };

  // The node counts as running only after its first chain sync (LightningNode.start awaits it): with a
  // stale best block a payment's HTLC expiries would be set too low for the recipient, and a close the
  // peer forced while the wallet was shut must be seen before new payments go over the channel. The
  // stages before it are shown on home meanwhile, and nothing but lightning waits for it.
  node = await LightningNode.start({
    seed: lightningSeed(deps.mnemonic),
    network: deps.network,
    store: deps.store,
    chain,
    log,
    role: "wallet",
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, deps.proxy), deps.makeSocket),
    fundChannel: async (script, sats) => {
      const f = await deps.fund(script, sats);
      fundings.set(f.txid, f.feeSats);
      return f.tx;
    },
    sweepScript: deps.sweepScript,
    onEvent,
    trustedZeroConfPeer: () => trustedPeer,
    onRestored: () => deps.onStage?.("syncing"),
  });
  record(snapshot());
  const started = node;
  const sync = () => started.sync().catch((e) => log("warn", `chain sync: ${String(e)}`));
  const timer = setInterval(() => void sync(), CHAIN_SYNC_MS);
  // Funds of closed channels a restore from the words cannot know of, found by the seed's scripts.
  void started.recoverStaticOutputs().catch((e) => log("warn", `recovery scan: ${String(e)}`));
  return {
    node: started,
    logs: () => [...lines],
    lsp,
    lspPost: (path, body) => postToLsp(deps.lsp, deps.fetch, path, body),
    connect: (peer) => started.connectPeer(peer),
    sync,
    stop: () => {
      clearInterval(timer);
      return started.stop();
    },
  };
};
