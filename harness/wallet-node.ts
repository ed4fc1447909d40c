/**
 * A lightning node in the wallet's role on the world's chain and peers, as tests and benches start one:
 * the world's Esplora, its proxy to reach peers, its faucet to fund channels, and a fixed sweep script.
 * Any other option of `LightningNode.start` may be given and wins.
 */
import { displayHex, EsploraChain } from "../src/engine/lightning/chain";
import { LightningNode } from "../src/engine/lightning/node";
import type { NodeEvent, NodeOptions } from "../src/engine/lightning/node-types";
import { openWebSocketPipe, parsePeerAddress, peerSocketUrl } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { makeEsplora } from "../src/engine/onchain/esplora";
import { towerKey } from "../src/engine/tower/appointment";
import { TowerClient } from "../src/engine/tower/client";
import { nodeWebSocket } from "../services/gossip/pipes";
import { until } from "./until";
import { type Harness, startHarness } from "./world";

/** Where a wallet node's swept funds go: a fixed P2WPKH script whose 20-byte hash is `fill` repeated. */
export const sweepScriptOf = (fill: number) => new Uint8Array([0x00, 0x14, ...new Uint8Array(20).fill(fill)]);

export const startWalletNode = (
  world: Pick<Harness, "esploraUrl" | "proxyUrl" | "fundingTx">,
  opts: Pick<NodeOptions, "seed" | "store" | "onEvent"> &
    Partial<NodeOptions> & {
      /** How the node's chain source reaches the world's Esplora (to watch what it asks, say). */
      readonly fetch?: typeof fetch;
    },
): Promise<LightningNode> => {
  const { fetch: fetchVia = (input, init) => fetch(input, init), ...options } = opts;
  return LightningNode.start({
    network: "regtest",
    chain: new EsploraChain(makeEsplora(world.esploraUrl, fetchVia), () => {}),
    log: () => {},
    role: "wallet",
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, world.proxyUrl), nodeWebSocket),
    fundChannel: (script, sats) => world.fundingTx(script, sats),
    sweepScript: async () => sweepScriptOf(7),
    ...options,
  });
};

/**
 * A fresh world and one wallet node on it, as a lightning test file starts them: a random seed and an empty
 * store unless `options` (given the world) says otherwise; every node event is pushed to `events`.
 */
export const startWorldWithNode = async (
  events: NodeEvent[],
  options: (world: Harness) => Partial<Parameters<typeof startWalletNode>[1]> = () => ({}),
): Promise<{ world: Harness; node: LightningNode }> => {
  const world = await startHarness({ port: 0 });
  const node = await startWalletNode(world, {
    seed: crypto.getRandomValues(new Uint8Array(32)),
    store: new MemoryBlobStore(),
    onEvent: (e) => events.push(e),
    ...options(world),
  });
  return { world, node };
};

/**
 * A wallet node that gives the world's watchtower an appointment after each channel update, as the wallet
 * does: `start` starts it (again, after a stop) on `seed` and `store`, every node event pushed to `events`.
 */
export const towerWatchedNode = (
  world: Harness,
  opts: { readonly seed: Uint8Array; readonly store: MemoryBlobStore; readonly events: NodeEvent[] },
): { tower: TowerClient; watched: Set<string>; start: () => Promise<LightningNode> } => {
  const { seed, store, events } = opts;
  // The revoked commitments (display txids) whose justice the wallet handed the tower.
  const watched = new Set<string>();
  const tower = new TowerClient(
    world.towerUrl,
    towerKey(seed).secret,
    (i, init) => fetch(i, init),
    () => {},
  );
  const start = () =>
    startWalletNode(world, {
      seed,
      store,
      onEvent: (e) => events.push(e),
      paymentTimeoutMs: 30_000,
      onJustice: (txid, tx) => {
        watched.add(displayHex(txid));
        tower.add(txid, tx);
      },
    });
  return { tower, watched, start };
};

/** Mines `n` blocks, then the world's LSP and `wallet` catch up with them. */
export const mineAndSync = async (
  world: Pick<Harness, "lightning" | "mine">,
  wallet: LightningNode,
  n: number,
): Promise<void> => {
  await world.mine(n);
  await world.lightning.node.sync();
  await wallet.sync();
};

/**
 * The world's LSP pays `wallet` an invoice of each of `sats` in turn, each payment succeeded; resolves once
 * the wallet has received them all (`events` are the ones its node pushes its events to).
 */
export const lspPays = async (
  world: Pick<Harness, "lightning">,
  wallet: LightningNode,
  events: readonly NodeEvent[],
  sats: readonly bigint[],
): Promise<void> => {
  const received = () => events.filter((e) => e.type === "payment_received").length;
  const before = received();
  for (const s of sats) {
    const { bolt11 } = wallet.createInvoice(s * 1000n, "to the wallet");
    const paid = await world.lightning.node.payInvoice(bolt11, 100_000n);
    if (paid.status !== "succeeded") throw new Error(`the LSP's payment of ${s} sats: ${paid.status}`);
  }
  await until("received", () => received() === before + sats.length);
};

type ChannelPending = Extract<NodeEvent, { type: "channel_pending" }>;

/**
 * A channel of `sats` between `wallet` and the world's LSP, opened by the one `opener` names (the LSP pushes
 * nothing to the wallet), its funding buried under 6 blocks and usable on both sides; answers the node's
 * `channel_pending` event for it. `events` are the ones the node pushes its events to.
 */
export const openUsableChannel = async (
  world: Pick<Harness, "lightning" | "mine" | "waitForTx">,
  wallet: LightningNode,
  events: readonly NodeEvent[],
  opts: { readonly opener: "wallet" | "lsp"; readonly sats: bigint },
): Promise<ChannelPending> => {
  const lsp = world.lightning;
  const before = events.length;
  await wallet.connectPeer(parsePeerAddress(lsp.address)!);
  if (opts.opener === "wallet") wallet.openChannel(lsp.pubkey, opts.sats);
  else lsp.node.openChannel(wallet.nodeId, opts.sats, 0n);
  const pendingOf = () =>
    events
      .slice(before)
      .find((e): e is ChannelPending => e.type === "channel_pending" && e.peer === lsp.pubkey);
  await until("pending", () => pendingOf() !== undefined, 60_000);
  const pending = pendingOf()!;
  await world.waitForTx(pending.fundingTxid);
  await mineAndSync(world, wallet, 6);
  // Usable on both sides: the partner may see the wallet's channel_ready a moment after the wallet saw its own.
  const usable = (node: LightningNode) =>
    node.channels().some((c) => c.channelId === pending.channelId && c.isUsable);
  await until("usable", () => usable(wallet) && usable(lsp.node), 60_000);
  return pending;
};

/**
 * The transaction that spends a channel's funding output `outpoint` (`txid:vout`), once the world has it:
 * blocks mined after this bury the close.
 */
export const closingTransaction = async (
  world: Pick<Harness, "esploraUrl" | "waitForTx">,
  outpoint: string,
): Promise<string> => {
  const [fundingTxid = "", vout] = outpoint.split(":");
  const esplora = makeEsplora(world.esploraUrl, (i, init) => fetch(i, init));
  let closingTxid = "";
  await until(
    "closing transaction broadcast",
    async () => {
      closingTxid = (await esplora.outspend(fundingTxid, Number(vout)))?.txid ?? "";
      return closingTxid !== "";
    },
    60_000,
    100,
  );
  await world.waitForTx(closingTxid);
  return closingTxid;
};

/**
 * A partner's cheat `cheatTxid` mined, then the justice transaction the world's watchtower broadcasts for it
 * (from the appointments it holds) mined too; answers the justice transaction's id.
 */
export const towerPunishes = async (
  world: Pick<Harness, "mine" | "waitForTx" | "storage">,
  cheatTxid: string,
): Promise<string> => {
  await world.waitForTx(cheatTxid);
  await world.mine(1);
  let justice = "";
  await until(
    "the tower's justice transaction",
    async () => {
      const rows = await (await world.storage.db()).query<{ justice_txid: string | null }>(
        "SELECT justice_txid FROM tower_breaches",
      );
      justice = rows.rows[0]?.justice_txid ?? "";
      return justice !== "";
    },
    60_000,
    250,
  );
  await world.waitForTx(justice);
  await world.mine(1);
  return justice;
};
