/**
 * The node's peers: byte streams attached to LDK's peer manager (what the node sends goes out through the
 * output commit), the peers it knows and reconnects to while it has channels with them, and peers kept
 * connected for a while without a channel (an LSP whose invoice is open).
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import type { NodeCore } from "./node-core";
import { NodeError } from "./policy";
import type { PeerAddress, Pipe } from "./socket";
import { LN_PREFIX } from "./store";

const PEERS_KEY = `${LN_PREFIX}peers`;
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

  constructor(private readonly core: NodeCore) {}

  /** The peers remembered in the store. */
  async load(): Promise<void> {
    const peers = await this.core.opts.store.get(PEERS_KEY);
    if (peers) {
      for (const p of JSON.parse(untext.decode(peers)) as PeerAddress[]) this.knownPeers.set(p.pubkey, p);
    }
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
    };
    return descriptor;
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

  /** Connects to `pubkey@host:port` and remembers it, so it is reconnected while we have channels with it. */
  async connectPeer(peer: PeerAddress): Promise<void> {
    this.knownPeers.set(peer.pubkey, peer);
    await this.core.commit.enqueue([
      { key: PEERS_KEY, value: text.encode(JSON.stringify([...this.knownPeers.values()])) },
    ]);
    if (this.isConnected(peer.pubkey)) return;
    const pipe = await this.core.opts.connect(peer);
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
    for (let i = 0; i < 100 && !this.isConnected(peer.pubkey); i++) {
      this.core.schedule();
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!this.isConnected(peer.pubkey)) throw new NodeError("The peer did not answer");
  }

  disconnectPeer(pubkey: string): void {
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

  private reconnecting = false;
  async reconnect(): Promise<void> {
    if (this.reconnecting || this.core.stopped) return;
    this.reconnecting = true;
    try {
      const withChannels = new Set(
        this.core.manager.list_channels().map((c) => hex.encode(c.get_counterparty().get_node_id())),
      );
      for (const [pubkey, address] of this.knownPeers) {
        if (!(withChannels.has(pubkey) || this.kept(pubkey)) || this.isConnected(pubkey)) continue;
        await this.connectPeer(address).catch((e) =>
          this.core.opts.log("info", `reconnect ${pubkey}: ${String(e)}`),
        );
      }
    } finally {
      this.reconnecting = false;
    }
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
