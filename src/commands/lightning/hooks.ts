/**
 * What the lightning engine may ask of the wallet while it runs: an on-chain payment to fund a channel, a
 * fresh script for swept outputs, events to record, what the log knows of its channels and LSP fees, and
 * where to report its progress. Each call that reads or writes the log runs in the command queue.
 */
import { Effect } from "effect";
import { hex } from "@scure/base";
import type { EngineHooks } from "../../engine/engine";
import type { LightningPort, LspSettings } from "../../engine/lightning/live";
import type { OnchainPort } from "../../engine/onchain/port";
import { scriptFor } from "../../engine/onchain/networks";
import { delayFor } from "../../engine/lightning/delay-consent";
import { type NewEvent, newEvent } from "../../events/make";
import type { States } from "../../projections";
import type { LightningStage, LiveState, PeerLink } from "../../projections/live";
import type { Attachment, HostSide } from "../attached";
import type { EngineRunner, EngineStatus } from "../engines";
import { LightningRestarts } from "./restart";
import { delayStale } from "./lsp-delay";
import { NOTHING_WAITS, setStorageWaiting } from "../storage";

/** The host as the lightning engine's hooks see it. */
export interface LightningHost {
  readonly enqueue: <T>(f: () => Promise<T>) => Promise<T>;
  readonly commit: (events: readonly NewEvent[]) => Promise<void>;
  readonly states: () => States;
  readonly onchain: () => OnchainPort | null;
  readonly lightning: () => LightningPort | null;
  readonly live: () => LiveState;
  readonly setLive: (patch: Partial<LiveState>) => void;
  /** Asks for an on-chain sync soon (several asks close together make one). */
  readonly syncSoon: () => void;
  /** The node failed while running: it is no longer the wallet's lightning. */
  readonly failed: (message: string) => void;
}

/** Channels that can send and receive now: ready, peer connected and the channel re-established. */
export const usableChannels = (ln: LightningPort | null): string[] =>
  ln
    ? ln.node
        .channels()
        .filter((c) => c.isUsable)
        .map((c) => c.channelId)
    : [];

export const onlinePeers = (ln: LightningPort | null): string[] =>
  ln
    ? ln.node
        .peers()
        .filter((p) => p.connected)
        .map((p) => p.pubkey)
    : [];

/** Each peer the node keeps connected, and how (connecting, connected, unreachable since when). */
export const peerLinks = (ln: LightningPort | null): PeerLink[] => (ln ? ln.node.peerStatus() : []);

const runningOnchain = (host: LightningHost): OnchainPort => {
  const onchain = host.onchain();
  if (!onchain) throw new Error("The on-chain wallet is not running");
  return onchain;
};

export const lightningHooks = (host: LightningHost): EngineHooks["lightning"] => ({
  fund: (script, sats) =>
    host.enqueue(async () => {
      const out = await Effect.runPromise(
        runningOnchain(host).spend(host.states().onchain, { kind: "pay", script, amountSats: sats }, [], {
          broadcast: false,
        }),
      );
      await host.commit(out.events);
      return { tx: hex.decode(out.hex), txid: out.txid, feeSats: out.feeSats };
    }),
  sweepScript: () =>
    host.enqueue(async () => {
      const onchain = runningOnchain(host);
      const index = host.states().onchain.nextIndex.internal;
      const address = onchain.addressAt("internal", index);
      await host.commit([
        newEvent("onchain.address_issued", { address, keychain: "internal", index, labels: [] }),
      ]);
      return scriptFor(address, onchain.network);
    }),
  record: (events: readonly NewEvent[]) => {
    void host.enqueue(() => host.commit(events)).catch(() => undefined);
  },
  knownChannels: () => host.states().lightning.channels,
  promisedLspFee: (paymentHash) => host.states().lightning.lspFees.get(paymentHash)?.feeMsat ?? null,
  toSelfDelay: (lsp) => delayFor(host.states().delays.consents, lsp),
  onChainActivity: () => host.syncSoon(),
  onFailed: (message) => host.failed(message),
  onStorageWaiting: (waiting) => setStorageWaiting(host, "channels", waiting),
  onAlreadyRunning: (remainingSecs) => host.setLive({ lock_remaining_secs: remainingSecs }),
  onClosedFor: (c) => host.setLive({ closed_for: { blocks: c.blocks, limit_blocks: c.limitBlocks } }),
  onServerBehind: ({ device, server }) =>
    host.setLive({
      storage_behind: {
        device: device.global.toString(),
        device_at: device.at,
        server: server.global.toString(),
        server_at: server.at,
        forged: server.forged,
      },
    }),
  onStage: (stage: LightningStage) => {
    // A node stopped while it started may still report: only the one starting now is shown.
    if (host.live().lightning === "starting" && !host.lightning()) host.setLive({ lightning_stage: stage });
  },
  onLive: () => {
    const ln = host.lightning();
    const online = onlinePeers(ln);
    const usable = usableChannels(ln);
    const links = peerLinks(ln);
    const live = host.live();
    if (
      JSON.stringify(online) !== JSON.stringify(live.online_peers) ||
      JSON.stringify(usable) !== JSON.stringify(live.usable_channels) ||
      JSON.stringify(links) !== JSON.stringify(live.peer_status ?? [])
    )
      host.setLive({ online_peers: online, usable_channels: usable, peer_status: links });
  },
});

/** The live state the screens show of the node as its engine starts, runs, fails, stops or is not needed. */
export const lightningLive = (status: EngineStatus, ln: LightningPort | null): Partial<LiveState> => {
  switch (status.state) {
    case "starting":
      return {
        lightning: "starting",
        lightning_stage: "loading",
        lightning_error: null,
        ...NOTHING_WAITS,
        lock_remaining_secs: null,
        storage_behind: null,
      };
    case "ready":
      return {
        lightning: "ready",
        lightning_stage: null,
        node_id: ln?.node.nodeId ?? null,
        online_peers: onlinePeers(ln),
        usable_channels: usableChannels(ln),
        peer_status: peerLinks(ln),
      };
    case "failed":
      // Its writes ended with it: nothing waits for the storage server until it starts again.
      return { lightning: "failed", lightning_stage: null, lightning_error: status.error, ...NOTHING_WAITS };
    case "not_needed":
      // The only reason a wallet does not run its node.
      return { lightning: "safe_mode", lightning_stage: null };
    case "off":
      return {
        lightning: "off",
        lightning_stage: null,
        ...NOTHING_WAITS,
        node_id: null,
        online_peers: [],
        usable_channels: [],
        peer_status: [],
      };
  }
};

/**
 * Resolves once the node runs and its channels are back with their peers (or it has none), or after 30 s:
 * a payment asked for at start (a wallet-connect request that waited while the tab was closed) is then
 * decided on the wallet's real balance, not on channels still reconnecting.
 */
export const whenChannelsBack = async (engines: EngineRunner): Promise<void> => {
  await engines.whenStarted("lightning");
  const end = Date.now() + 30_000;
  for (;;) {
    const ln = engines.port("lightning");
    if (!ln || ln.node.channels().length === 0 || usableChannels(ln).length > 0 || Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 250));
  }
};

/**
 * Channel opens asked for before the wallet last stopped whose funding never went out (a reload before it):
 * recorded as interrupted, so the owner is told; nothing was spent. An open whose channel the node has but
 * the log does not yet is left to its own event.
 */
export const reportInterruptedOpens = async (side: HostSide): Promise<void> => {
  const ln = side.engines.port("lightning");
  if (!ln) return;
  const { lightning } = side.states();
  const unrecorded = ln.node.channels().filter((c) => !lightning.opens.has(c.channelId));
  const events = [...lightning.requestedOpens]
    .filter(([, open]) => !unrecorded.some((c) => c.peer === open.peer))
    .map(([id]) => newEvent("ln.open_interrupted", { request_id: id }));
  if (events.length > 0) await side.commit(events);
};

/** The lightning engine's hooks, the node's live state on the screens, and the chain syncs it asks for. */
export const lightningAttachment = (side: HostSide): Attachment => {
  let syncTimer: ReturnType<typeof setTimeout> | null = null;
  const restarts = new LightningRestarts(side);
  // The lightning service changed while the wallet runs: a node started again (a delay accepted, a server
  // back) keeps using it rather than the one the wallet opened with.
  let lspNow: LspSettings | null = null;
  return {
    engine: "lightning",
    // A delay the owner accepted: the node (stopped by the command) starts again asking it.
    startsEngines: (events) => events.some((e) => e.type === "ln.delay_consented"),
    answered: (command) => {
      if (command._tag !== "ChangeLsp") return;
      const ln = side.engines.port("lightning");
      lspNow = ln?.lspSettings() ?? lspNow;
      // The new LSP calls for another delay (one the owner accepted for it, or two weeks): the node starts again.
      if (ln && delayStale(ln, side.states().delays.consents))
        void side.engines
          .stop("lightning")
          .then(() => side.startEngines())
          .catch(() => undefined);
    },
    hooks: () => ({
      lspSettings: () => lspNow,
      ...lightningHooks({
        enqueue: side.enqueue,
        commit: side.commit,
        states: side.states,
        onchain: () => side.engines.port("onchain"),
        lightning: () => side.engines.port("lightning"),
        live: side.live,
        setLive: side.setLive,
        failed: (message) => side.engines.failed("lightning", message),
        syncSoon: () => {
          if (syncTimer) return;
          syncTimer = setTimeout(() => {
            syncTimer = null;
            if (!side.stopped()) void side.run({ _tag: "SyncOnchain" });
          }, 1000);
        },
      }),
    }),
    status: (name, status) => {
      if (name !== "lightning") return;
      side.setLive(lightningLive(status, side.engines.port("lightning")));
      restarts.status(status);
      if (status.state === "ready")
        void side.enqueue(() => reportInterruptedOpens(side)).catch(() => undefined);
    },
    wake: () => {
      side.engines.port("lightning")?.node.wake();
      restarts.wake();
    },
    stop: () => {
      restarts.stop();
      if (syncTimer) clearTimeout(syncTimer);
    },
  };
};
