/**
 * The node's peers: byte streams attached to LDK's peer manager (what the node sends goes out through the
 * output commit), the peers it knows and keeps connected while it has channels with them, and peers kept
 * connected for a while without a channel (an LSP whose invoice is open). Who is dialled when is the
 * supervisor's (`supervisor.ts`): it is told at once when a socket closes.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import type { NodeCore } from "./node-core";
import { NodeError } from "./policy";
import type { PeerAddress, Pipe } from "./socket";
import { LN_PREFIX } from "./store";

const PEERS_KEY = `${LN_PREFIX}peers`;
/** When each peer was last connected (unix ms): "offline since" survives a reload. */
const SEEN_KEY = `${LN_PREFIX}peers_seen`;
const text = new TextEncoder();
const untext = new TextDecoder();

interface Connection {
  readonly pipe: Pipe;
  readonly descriptor: ldk.SocketDescriptor;
}

export class Peers {
  private readonly connections = new Map<bigint, Connection>();
  private nextSocket = 1n;
  private knownPeers = new Map<string, PeerAddress>();
  /** Dials under way, by public key: a second ask joins the first rather than opening another socket. */
  private readonly dials = new Map<string, Promise<void>>();
  /** Told when a connection ended (closed by the peer, the network, or LDK). */
  dropped: () => void = () => {};

  constructor(private readonly core: NodeCore) {}

  /** When each peer was last connected (unix ms), as far as this node saw. */
  private readonly seen = new Map<string, number>();

  /** The peers remembered in the store, and when each was last connected. */
  async load(): Promise<void> {
    const peers = await this.core.opts.store.get(PEERS_KEY);
    if (peers) {
      for (const p of JSON.parse(untext.decode(peers)) as PeerAddress[]) this.knownPeers.set(p.pubkey, p);
    }
    const seen = await this.core.opts.store.get(SEEN_KEY);
    try {
      const read: unknown = seen ? JSON.parse(untext.decode(seen)) : {};
      for (const [k, v] of Object.entries(read as Record<string, unknown>))
        if (typeof v === "number" && Number.isFinite(v)) this.seen.set(k, v);
    } catch {
      // Only a hint for the screens: unread, every peer counts as seen when the node started.
    }
  }

  lastSeen(pubkey: string): number | null {
    return this.seen.get(pubkey) ?? null;
  }

  /** Notes that a peer was connected at `at` (it connected, or was seen dropping then). */
  noteSeen(pubkey: string, at: number): void {
    if (this.core.stopped) return;
    this.seen.set(pubkey, at);
    const value = text.encode(JSON.stringify(Object.fromEntries(this.seen)));
    void this.core.commit
      .enqueue([{ key: SEEN_KEY, value }])
      .catch((e: unknown) => this.core.log("warn", `peers seen: ${String(e)}`));
  }

  /** Closes every connection (the node is stopping). */
  closeAll(): void {
    for (const { pipe } of this.connections.values()) {
      try {
        pipe.close();
      } catch {
        // already closed
      }
    }
    this.connections.clear();
  }

  attach(pipe: Pipe): ldk.SocketDescriptor {
    const id = this.nextSocket++;
    const descriptor = ldk.SocketDescriptor.new_impl({
      send_data: (data: Uint8Array, _resume: boolean) => {
        // Sent once the state this message speaks of is durable (see `persistState`).
        const bytes = data.slice();
        this.core.commit.hold(() => pipe.send(bytes));
        return data.length;
      },
      disconnect_socket: () => {
        this.connections.delete(id);
        this.drop();
        // After what was said before it (an error message, say) has gone out.
        this.core.commit.hold(() => {
          try {
            pipe.close();
          } catch {
            // already closed
          }
        });
      },
      eq: (other: ldk.SocketDescriptor) => other.hash() === id,
      hash: () => id,
    } as ldk.SocketDescriptorInterface);
    this.connections.set(id, { pipe, descriptor });
    pipe.onData = (data) => {
      if (this.core.stopped) return;
      try {
        const r = this.core.peerManager.read_event(descriptor, data);
        if (!r.is_ok()) {
          this.connections.delete(id);
          pipe.close();
          this.drop();
        }
      } catch (e) {
        this.core.opts.log("error", `read: ${String(e)}`);
      }
      this.core.schedule();
    };
    pipe.onClose = () => {
      if (!this.connections.has(id) || this.core.stopped) return;
      this.connections.delete(id);
      this.core.guard("disconnect", () => this.core.peerManager.socket_disconnected(descriptor));
      this.core.schedule();
      this.drop();
    };
    return descriptor;
  }

  /** After this turn (LDK may be calling us): the supervisor looks at who is connected now. */
  private drop(): void {
    setTimeout(() => {
      if (!this.core.stopped) this.dropped();
    }, 0);
  }

  /** Takes a connection a peer opened to us (the local world's listeners). */
  acceptInbound(pipe: Pipe): void {
    const descriptor = this.attach(pipe);
    const r = this.core.peerManager.new_inbound_connection(
      descriptor,
      ldk.Option_SocketAddressZ.constructor_none(),
    );
    if (!r.is_ok()) pipe.close();
    this.core.schedule();
  }

  isConnected(pubkey: string): boolean {
    return this.core.peerManager
      .list_peers()
      .some((p) => hex.encode(p.get_counterparty_node_id()) === pubkey);
  }

  /** Connects to `pubkey@host:port` and remembers it, so it is kept connected while we have channels with it. */
  async connectPeer(peer: PeerAddress): Promise<void> {
    if (!this.sameAsKnown(peer)) {
      this.knownPeers.set(peer.pubkey, peer);
      await this.core.commit.enqueue([
        { key: PEERS_KEY, value: text.encode(JSON.stringify([...this.knownPeers.values()])) },
      ]);
    }
    await this.dial(peer);
  }

  private sameAsKnown(peer: PeerAddress): boolean {
    const known = this.knownPeers.get(peer.pubkey);
    return known !== undefined && known.host === peer.host && known.port === peer.port;
  }

  /** Dials a peer (without remembering it); resolves once it is connected. */
  dial(peer: PeerAddress): Promise<void> {
    if (this.isConnected(peer.pubkey)) return Promise.resolve();
    const under = this.dials.get(peer.pubkey);
    if (under) return under;
    const dialling = this.open(peer).finally(() => this.dials.delete(peer.pubkey));
    this.dials.set(peer.pubkey, dialling);
    return dialling;
  }

  private async open(peer: PeerAddress): Promise<void> {
    const pipe = await this.core.opts.connect(peer);
    if (this.core.stopped) {
      pipe.close();
      throw new NodeError("The node stopped");
    }
    const descriptor = this.attach(pipe);
    const r = this.core.peerManager.new_outbound_connection(
      hex.decode(peer.pubkey),
      descriptor,
      ldk.Option_SocketAddressZ.constructor_none(),
    );
    if (!(r instanceof ldk.Result_CVec_u8ZPeerHandleErrorZ_OK)) {
      pipe.close();
      throw new NodeError("The peer refused the connection");
    }
    pipe.send(r.res);
    // Until the handshake is done, or the socket closed under it: a proxy whose TCP dial the peer refused
    // closes its WebSocket at once, and that dial has failed (not 5 s later), so the next one can go.
    const open = () => [...this.connections.values()].some((c) => c.descriptor === descriptor);
    for (let i = 0; i < 100 && !this.isConnected(peer.pubkey) && !this.core.stopped && open(); i++) {
      this.core.schedule();
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!this.isConnected(peer.pubkey) && !open()) throw new NodeError("The peer closed the connection");
    if (!this.isConnected(peer.pubkey)) {
      // A handshake that never finished leaves no half-open socket behind for the next dial to race.
      this.core.guard("abandon dial", () => this.core.peerManager.socket_disconnected(descriptor));
      pipe.close();
      throw new NodeError("The peer did not answer");
    }
  }

  /**
   * The owner's ask to disconnect a peer: it is no longer kept connected for an open invoice (a peer with a
   * channel is still dialled again, as the channel needs it).
   */
  disconnectPeer(pubkey: string): void {
    this.keepUntil.delete(pubkey);
    this.core.peerManager.disconnect_by_node_id(hex.decode(pubkey));
  }

  async deletePeer(pubkey: string): Promise<void> {
    this.disconnectPeer(pubkey);
    this.knownPeers.delete(pubkey);
    await this.core.commit.enqueue([
      { key: PEERS_KEY, value: text.encode(JSON.stringify([...this.knownPeers.values()])) },
    ]);
  }

  list(): { pubkey: string; address: PeerAddress | null; connected: boolean }[] {
    const connected = new Set(
      this.core.peerManager.list_peers().map((p) => hex.encode(p.get_counterparty_node_id())),
    );
    const all = new Set([...connected, ...this.knownPeers.keys()]);
    return [...all].sort().map((pubkey) => ({
      pubkey,
      address: this.knownPeers.get(pubkey) ?? null,
      connected: connected.has(pubkey),
    }));
  }

  /** The peers to keep connected now: those we have a channel with, and those kept for a while. */
  wanted(): Map<string, PeerAddress> {
    const withChannels = new Set(
      this.core.manager.list_channels().map((c) => hex.encode(c.get_counterparty().get_node_id())),
    );
    const wanted = new Map<string, PeerAddress>();
    for (const [pubkey, address] of this.knownPeers)
      if (withChannels.has(pubkey) || this.kept(pubkey)) wanted.set(pubkey, address);
    return wanted;
  }

  /** Peers kept connected until a time (unix ms) though no channel is open with them yet. */
  private readonly keepUntil = new Map<string, number>();

  /** Keeps `pubkey` connected (reconnecting when it drops) until `untilMs`, e.g. while an LSP's invoice is open. */
  keepConnected(pubkey: string, untilMs: number): void {
    const now = (this.core.opts.now ?? Date.now)();
    for (const [p, until] of this.keepUntil) if (until <= now) this.keepUntil.delete(p);
    if (untilMs > (this.keepUntil.get(pubkey) ?? 0)) this.keepUntil.set(pubkey, untilMs);
  }

  kept(pubkey: string): boolean {
    return (this.keepUntil.get(pubkey) ?? 0) > (this.core.opts.now ?? Date.now)();
  }
}
