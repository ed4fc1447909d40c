/**
 * A byte stream to a lightning peer, whatever carries it: a browser WebSocket (direct to a WebSocket-capable
 * node or through a WebSocket-to-TCP proxy), or a TCP socket in the local world. The node only sees `Pipe`s.
 */
import { boundedSockets, type SocketLimits, type WebSocketFactory } from "../http/socket";
export interface Pipe {
  readonly send: (data: Uint8Array) => void;
  readonly close: () => void;
  /** Set by the node: bytes from the peer, and the end of the stream. */
  onData: (data: Uint8Array) => void;
  onClose: () => void;
}

export type { WebSocketFactory, WebSocketLike } from "../http/socket";

/**
 * A peer's socket: connected within the deadline, and no message larger than a lightning message could
 * need (the proxy forwards TCP reads, each far below this); a peer over it is cut off.
 */
export const PEER_SOCKET_LIMITS: SocketLimits = { connectMs: 10_000, maxMessageBytes: 1_000_000 };

/** Opens a bounded WebSocket and answers a pipe once it is connected; rejects after `timeoutMs`. */
export const openWebSocketPipe = (
  url: string,
  makeSocket: WebSocketFactory,
  timeoutMs = PEER_SOCKET_LIMITS.connectMs,
): Promise<Pipe> =>
  new Promise((resolve, reject) => {
    const ws = boundedSockets(makeSocket, { ...PEER_SOCKET_LIMITS, connectMs: timeoutMs })(url);
    ws.binaryType = "arraybuffer";
    let open = false;
    const pipe: Pipe = {
      send: (data) => ws.send(data),
      close: () => ws.close(),
      onData: () => {},
      onClose: () => {},
    };
    ws.onopen = () => {
      open = true;
      resolve(pipe);
    };
    ws.onmessage = (ev) => {
      const d = ev.data;
      if (d instanceof ArrayBuffer) pipe.onData(new Uint8Array(d));
      else if (ArrayBuffer.isView(d)) pipe.onData(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
    };
    // Closed by the peer, or cut off by the bounds (not connected in time, a message over the cap).
    ws.onclose = () => {
      if (open) pipe.onClose();
      else reject(new Error(`Could not reach ${url}`));
    };
    ws.onerror = () => {};
  });

/** A peer's address: `pubkey@host:port`. */
export interface PeerAddress {
  readonly pubkey: string;
  readonly host: string;
  readonly port: number;
}

export const parsePeerAddress = (text: string): PeerAddress | null => {
  const m = /^([0-9a-fA-F]{66})@(\[[0-9a-fA-F:]+\]|[^:@\s]+):(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { pubkey: m[1]!.toLowerCase(), host: m[2]!, port };
};

/**
 * The WebSocket URL for a peer: through the proxy when one is configured (`<proxy>/v1/<host>/<port>`, dots
 * of an IPv4 address written as underscores, as public lightning proxies expect), else the peer itself.
 */
export const peerSocketUrl = (peer: PeerAddress, proxy: string | null): string => {
  if (!proxy) return `ws://${peer.host}:${peer.port}`;
  return `${proxy.replace(/\/+$/, "")}/v1/${peer.host.replaceAll(".", "_")}/${peer.port}`;
};
