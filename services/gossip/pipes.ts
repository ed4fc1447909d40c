/** Byte streams for the local lightning node: TCP sockets and WebSockets as the node's `Pipe`s. */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { connect, type Socket } from "node:net";
import { initializeWasmFromBinary } from "lightningdevkit";
import WebSocket from "ws";
import type { Pipe, WebSocketLike } from "../../src/engine/lightning/socket";

let loaded: Promise<void> | null = null;

/** Loads LDK's wasm once per process (Node). */
export const loadLdk = (): Promise<void> => {
  loaded ??= (async () => {
    const path = createRequire(import.meta.url).resolve("lightningdevkit/liblightningjs.wasm");
    await initializeWasmFromBinary(new Uint8Array(await readFile(path)));
  })();
  return loaded;
};

export const tcpPipe = (socket: Socket): Pipe => {
  const pipe: Pipe = {
    send: (data) => {
      socket.write(data);
    },
    close: () => socket.destroy(),
    onData: () => {},
    onClose: () => {},
  };
  socket.setNoDelay(true);
  socket.on("data", (d: Buffer) => pipe.onData(new Uint8Array(d)));
  socket.on("close", () => pipe.onClose());
  socket.on("error", () => socket.destroy());
  return pipe;
};

export const dialTcp = (host: string, port: number): Promise<Pipe> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => {
      socket.off("error", reject);
      resolve(tcpPipe(socket));
    });
    socket.once("error", reject);
  });

/** An accepted WebSocket (server side) as a pipe. */
export const wsPipe = (ws: WebSocket): Pipe => {
  const pipe: Pipe = {
    send: (data) => ws.send(data),
    close: () => ws.close(),
    onData: () => {},
    onClose: () => {},
  };
  ws.binaryType = "nodebuffer";
  ws.on("message", (d: Buffer) => pipe.onData(new Uint8Array(d)));
  ws.on("close", () => pipe.onClose());
  ws.on("error", () => ws.terminate());
  return pipe;
};

/** A WebSocket client for Node with the browser's API, for the wallet's node in tests. */
export const nodeWebSocket = (url: string): WebSocketLike => new WebSocket(url) as unknown as WebSocketLike;
