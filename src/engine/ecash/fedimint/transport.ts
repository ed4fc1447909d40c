/**
 * `@fedimint/core` talks to its client through a `Transport` (its web one runs the wasm in a worker of its
 * own). The wallet's engines already run in a worker, so this transport drives the wasm client in the same
 * thread: the same messages (`init`, `join`, `open`, `rpc`, `unsubscribe`, `cleanup`, `parseInviteCode`)
 * and answers as `@fedimint/transport-web` 0.1.0, whose worker pairs with `@fedimint/core` 0.1.1, without
 * its console logging of every request and answer (they carry invoices and ecash notes).
 */
import type {
  JSONValue,
  Transport,
  TransportErrorHandler,
  TransportLogger,
  TransportMessage,
  TransportMessageHandler,
  TransportRequest,
} from "@fedimint/core";
import type { RpcHandle, WasmClient } from "@fedimint/fedimint-client-wasm-bundler";
import type { FedimintClientClass } from "./wasm";

const quiet: TransportLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const messageOf = (e: unknown): string =>
  e instanceof Error ? e.message : typeof e === "string" ? e : "The federation client failed.";

export class InThreadTransport implements Transport {
  logger: TransportLogger = quiet;
  private onMessage: TransportMessageHandler = () => {};
  private onError: TransportErrorHandler = () => {};
  private client: WasmClient | null = null;
  private readonly streams = new Map<number, RpcHandle>();

  constructor(private readonly load: () => Promise<FedimintClientClass>) {}

  setMessageHandler(handler: TransportMessageHandler): void {
    this.onMessage = handler;
  }

  setErrorHandler(handler: TransportErrorHandler): void {
    this.onError = handler;
  }

  postMessage(message: TransportRequest): void {
    // As across a worker boundary: answered later, never inside the caller's stack.
    queueMicrotask(() => {
      this.handle(message).catch((e) => this.onError(e));
    });
  }

  private reply(m: TransportMessage): void {
    this.onMessage(m);
  }

  private async handle({ type, payload, requestId }: TransportRequest): Promise<void> {
    const p = (payload ?? {}) as Record<string, JSONValue>;
    const fail = (e: unknown) => this.reply({ type: "error", error: messageOf(e), requestId });
    try {
      const Client = await this.load();
      switch (type) {
        case "init":
          return this.reply({ type: "initialized", data: {}, requestId });
        case "open":
          this.client = (await Client.open(String(p.clientName))) ?? null;
          return this.reply({ type: "open", data: { success: this.client !== null }, requestId });
        case "join":
          this.client = await Client.join_federation(String(p.clientName), String(p.inviteCode));
          return this.reply({ type: "join", data: { success: true }, requestId });
        case "parseInviteCode":
          return this.reply({
            type: "parseInviteCode",
            data: JSON.parse(Client.parse_invite_code(String(p.inviteCode))),
            requestId,
          });
        case "rpc": {
          if (!this.client || requestId === undefined) return fail("WasmClient not initialized");
          const handle = this.client.rpc(
            String(p.module),
            String(p.method),
            JSON.stringify(p.body ?? {}),
            (res: string) => {
              const data = JSON.parse(res) as Record<string, unknown>;
              this.reply({ type: "rpcResponse", requestId, ...data });
              if (data.end !== undefined) this.streams.get(requestId)?.free();
              if (data.end !== undefined) this.streams.delete(requestId);
            },
          );
          this.streams.set(requestId, handle);
          return;
        }
        case "unsubscribe": {
          const handle = requestId === undefined ? undefined : this.streams.get(requestId);
          if (handle && requestId !== undefined) {
            this.streams.delete(requestId);
            handle.cancel();
            handle.free();
          }
          return;
        }
        case "cleanup":
          for (const h of this.streams.values()) h.cancel();
          this.streams.clear();
          this.client?.free();
          this.client = null;
          return this.reply({ type: "cleanup", data: {}, requestId });
        default:
          return fail("Unknown message type");
      }
    } catch (e) {
      fail(e);
    }
  }
}
