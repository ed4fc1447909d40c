/**
 * A byte stream to a lightning peer, whatever carries it: a browser WebSocket (direct to a WebSocket-capable
 * node or through a WebSocket-to-TCP proxy), or a TCP socket in the local world. The node only sees `Pipe`s.
 */
export interface Pipe {
  readonly send: (data: Uint8Array) => void;
  readonly close: () => void;
  /** Set by the node: bytes from the peer, and the end of the stream. */
  onData: (data: Uint8Array) => void;
  onClose: () => void;
}

/** The subset of the WebSocket API (browser or the `ws` package) a pipe needs. */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

/** Opens a WebSocket and answers a pipe once it is connected; rejects after `timeoutMs`. */
export const openWebSocketPipe = (
  url: string,
  makeSocket: WebSocketFactory,
  timeoutMs = 10_000,
): Promise<Pipe> =>
  new Promise((resolve, reject) => {
    const ws = makeSocket(url);
    ws.binaryType = "arraybuffer";
    let open = false;
    const pipe: Pipe = {
      send: (data) => ws.send(data),
      close: () => ws.close(),
      onData: () => {},
      onClose: () => {},
    };
    const timer = setTimeout(() => {
      if (open) return;
      ws.close();
      reject(new Error(`Could not reach ${url}`));
    }, timeoutMs);
    ws.onopen = () => {
      open = true;
      clearTimeout(timer);
      resolve(pipe);
    };
    ws.onmessage = (ev) => {
      const d = ev.data;
      if (d instanceof ArrayBuffer) pipe.onData(new Uint8Array(d));
      else if (ArrayBuffer.isView(d)) pipe.onData(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
    };
    ws.onclose = () => {
      clearTimeout(timer);
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
