/**
 * The world as a lightning network: six more routing nodes with public, announced channels (six
 * confirmations, announcement signatures exchanged, gossip passed from peer to peer), started on demand
 * (`npm start`, and the tests that need it). The world's LSP node is a routing node of it too and collects
 * the gossip (P2PGossipSync); the RGS server serves its graph. The map (harness/README.md):
 *
 *                          ┌─ bob ──(1.0M)── carol ──(300k)─┐         cheap: 0 + 10 ppm a hop
 *   wallet ─ lsp ─(5M)─ alice                                 payee    (carol → payee too small alone)
 *                          └─ dave ──(2.0M)── erin ──(600k)──┘         dear: 1,000 + 1,000 ppm a hop
 *
 * The payee is four hops from the LSP either way; a payment over 600k sats fits neither path alone
 * (multi-path); `offline("bob")` takes the cheap path's middle node away (and `online` brings it back).
 */
import { hex } from "@scure/base";
import type { ForwardingPolicy } from "../src/engine/lightning/channels";
import type { ChannelGossip } from "../src/engine/lightning/gossip";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { type HarnessNode, startLightningNode } from "./lightning";
import type { World } from "./regtest";
import { HttpError, parseJson, type RouteTable, toSats } from "./server";
import { until } from "./until";

export const NETWORK_NODES = ["alice", "bob", "carol", "dave", "erin", "payee"] as const;
export type NetworkNodeName = (typeof NETWORK_NODES)[number];

export interface ChannelSpec {
  /** Opens the channel and holds its liquidity. */
  readonly from: NetworkNodeName | "lsp";
  readonly to: NetworkNodeName;
  readonly sats: bigint;
  /** What `from` charges to forward into it. */
  readonly policy: ForwardingPolicy;
}

// LDK asks at least 42 blocks of CLTV delta of every forwarding node.
const cheap: ForwardingPolicy = { feeBaseMsat: 0, feeProportionalMillionths: 10, cltvExpiryDelta: 42 };
const dear: ForwardingPolicy = { feeBaseMsat: 1_000, feeProportionalMillionths: 1_000, cltvExpiryDelta: 80 };

export const NETWORK_CHANNELS: readonly ChannelSpec[] = [
  {
    from: "lsp",
    to: "alice",
    sats: 5_000_000n,
    policy: { feeBaseMsat: 1_000, feeProportionalMillionths: 100, cltvExpiryDelta: 72 },
  },
  { from: "alice", to: "bob", sats: 1_000_000n, policy: cheap },
  { from: "bob", to: "carol", sats: 1_000_000n, policy: cheap },
  { from: "carol", to: "payee", sats: 300_000n, policy: cheap },
  { from: "alice", to: "dave", sats: 2_000_000n, policy: dear },
  { from: "dave", to: "erin", sats: 2_000_000n, policy: { ...dear, cltvExpiryDelta: 144 } },
  { from: "erin", to: "payee", sats: 600_000n, policy: { ...dear, feeBaseMsat: 2_000 } },
];

export interface Network {
  /** The node of that name now (a new object after `online`). */
  readonly node: (name: NetworkNodeName) => HarnessNode;
  /** The public channels as the collecting node's graph holds them. */
  readonly graph: () => ChannelGossip[];
  /** An invoice of `name`: without route hints (found through the graph), or with one for its entry channel. */
  readonly invoice: (
    name: NetworkNodeName,
    amountSats: bigint,
    opts?: { hints?: boolean; description?: string },
  ) => { bolt11: string; paymentHash: string };
  /** Stops a node (its peers see it gone); `online` restarts it from its own state, on the same port. */
  readonly offline: (name: NetworkNodeName) => Promise<void>;
  readonly online: (name: NetworkNodeName) => Promise<void>;
  readonly isOnline: (name: NetworkNodeName) => boolean;
  readonly stop: () => Promise<void>;
}

export interface NetworkDeps {
  readonly world: World;
  readonly esploraUrl: string;
  readonly host: string;
  /** The world's LSP node: a routing node of the network and the gossip collector. */
  readonly lsp: HarnessNode;
  readonly mine: (n: number) => Promise<unknown>;
  readonly waitForTx: (txid: string) => Promise<void>;
}

interface Slot {
  node: HarnessNode | null;
  readonly seed: Uint8Array;
  readonly store: MemoryBlobStore;
  tcpPort: number;
}

export const startNetwork = async (d: NetworkDeps): Promise<Network> => {
  const slots = new Map<NetworkNodeName, Slot>();
  const start = async (slot: Slot) => {
    slot.node = await startLightningNode(d.world, {
      esploraUrl: d.esploraUrl,
      host: d.host,
      seed: slot.seed,
      store: slot.store,
      tcpPort: slot.tcpPort,
      quiet: !process.env.NETWORK_LOG,
    });
    slot.tcpPort = slot.node.tcpPort;
    return slot.node;
  };
  await Promise.all(
    NETWORK_NODES.map((name) => {
      const slot: Slot = {
        node: null,
        seed: crypto.getRandomValues(new Uint8Array(32)),
        store: new MemoryBlobStore(),
        tcpPort: 0,
      };
      slots.set(name, slot);
      return start(slot);
    }),
  );
  const node = (name: NetworkNodeName | "lsp"): HarnessNode => {
    if (name === "lsp") return d.lsp;
    const n = slots.get(name)?.node;
    if (!n) throw new HttpError(409, `${name} is offline`);
    return n;
  };
  // Everyone's channels, opened at once and confirmed by the same six blocks.
  const pending: Promise<void>[] = [];
  for (const c of NETWORK_CHANNELS) {
    const from = node(c.from);
    const to = node(c.to);
    await from.node.connectPeer(parsePeerAddress(to.address)!);
    from.node.openChannel(to.pubkey, c.sats, 0n, true, c.policy);
    pending.push(
      from
        .waitFor((e) => e.type === "channel_pending" && e.peer === to.pubkey, 60_000)
        .then((e) => (e.type === "channel_pending" ? d.waitForTx(e.fundingTxid) : undefined)),
    );
  }
  await Promise.all(pending);
  await d.mine(6);
  for (const c of NETWORK_CHANNELS) {
    await until(
      `the channel ${c.from} → ${c.to} to be usable`,
      () =>
        node(c.from)
          .node.channels()
          .some((x) => x.peer === node(c.to).pubkey && x.isUsable),
      60_000,
    );
  }
  const announce = () => {
    for (const name of NETWORK_NODES) node(name).node.announceNode(name, d.host, node(name).tcpPort);
    d.lsp.node.announceNode("lsp", d.host, d.lsp.tcpPort);
  };
  announce();
  const graph = () => d.lsp.node.graphChannels();
  // As a real gossip collector does, the LSP peers with every routing node too, so each node's own
  // announcements reach it directly as well as through alice.
  await Promise.allSettled(
    NETWORK_NODES.map((name) => d.lsp.node.connectPeer(parsePeerAddress(node(name).address)!)),
  );
  const missing = () => {
    const g = graph();
    return NETWORK_CHANNELS.filter((c) => {
      const a = node(c.from).pubkey;
      const b = node(c.to).pubkey;
      const ch = g.find((x) => (x.node1 === a && x.node2 === b) || (x.node1 === b && x.node2 === a));
      return !ch?.updates[0] || !ch.updates[1];
    }).map((c) => `${c.from} → ${c.to}`);
  };
  // The gossip has reached the collector: every channel, both directions. Gossip a busy peer dropped is
  // sent again the way a live network sends it: with the next block and the next announcements.
  let lastNudge = Date.now();
  await until(
    "the network's gossip to reach the collecting node",
    async () => {
      const left = missing();
      if (left.length === 0) return true;
      if (Date.now() - lastNudge > 15_000) {
        lastNudge = Date.now();
        announce();
        await d.mine(1);
      }
      return false;
    },
    240_000,
    250,
  ).catch((e) => {
    throw new Error(`${String(e)} (missing: ${missing().join(", ")})`);
  });

  const entryOf = (name: NetworkNodeName) => {
    const spec = NETWORK_CHANNELS.find((c) => c.to === name);
    if (!spec) throw new HttpError(400, `${name} has no channel into it`);
    const from = node(spec.from).pubkey;
    const to = node(name).pubkey;
    const ch = graph().find(
      (c) => (c.node1 === from && c.node2 === to) || (c.node1 === to && c.node2 === from),
    );
    if (!ch) throw new HttpError(409, "The entry channel is not in the graph yet");
    return { pubkey: from, scid: ch.scid, ...spec.policy };
  };

  return {
    node: (name) => node(name),
    graph,
    invoice: (name, amountSats, opts = {}) => {
      const n = node(name).node;
      const description = opts.description ?? `${name}'s invoice`;
      return opts.hints
        ? n.createInvoiceWithHint(amountSats * 1000n, description, 3600, entryOf(name))
        : n.createInvoice(amountSats * 1000n, description, 3600);
    },
    offline: async (name) => {
      const slot = slots.get(name)!;
      const n = slot.node;
      slot.node = null;
      await n?.stop();
    },
    online: async (name) => {
      const slot = slots.get(name)!;
      if (slot.node) return;
      const n = await start(slot);
      // back once its peers are: every channel of its usable again
      await until(
        `${name}'s channels to be usable again`,
        () => n.node.channels().every((c) => c.isUsable),
        60_000,
        250,
      );
    },
    isOnline: (name) => slots.get(name)?.node !== null,
    stop: async () => {
      await Promise.all([...slots.values()].map((s) => s.node?.stop()));
    },
  };
};

const nameOf = (v: unknown): NetworkNodeName => {
  if (typeof v === "string" && (NETWORK_NODES as readonly string[]).includes(v)) return v as NetworkNodeName;
  throw new HttpError(400, `node must be one of ${NETWORK_NODES.join(", ")}`);
};

/** The network's HTTP API under /net/ (started on first use: the first call waits for it). */
export const networkRoutes = (network: () => Promise<Network>): RouteTable => [
  [
    "GET",
    /^\/net\/map$/,
    async () => {
      const n = await network();
      const nodes = Object.fromEntries(
        NETWORK_NODES.map((name) => [
          name,
          {
            online: n.isOnline(name),
            pubkey: n.isOnline(name) ? n.node(name).pubkey : null,
            // `pubkey@host:port`, for a gossip node outside the world (GOSSIP_PEERS)
            address: n.isOnline(name) ? n.node(name).address : null,
          },
        ]),
      );
      const channels = n.graph().map((c) => ({ ...c, features: hex.encode(c.features) }));
      return {
        json: JSON.parse(
          JSON.stringify({ nodes, channels }, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
        ),
      };
    },
  ],
  [
    "POST",
    /^\/net\/invoice$/,
    async (_m, body) => {
      const b = parseJson(body);
      const n = await network();
      return {
        json: n.invoice(nameOf(b.node), toSats(b.amount_sats), {
          hints: b.hints === true,
          ...(typeof b.description === "string" ? { description: b.description } : {}),
        }),
      };
    },
  ],
  [
    "POST",
    /^\/net\/(offline|online)$/,
    async (m, body) => {
      const name = nameOf(parseJson(body).node);
      const n = await network();
      await (m[1] === "offline" ? n.offline(name) : n.online(name));
      return { json: { node: name, online: n.isOnline(name) } };
    },
  ],
];
