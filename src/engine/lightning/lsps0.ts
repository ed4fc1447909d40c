/**
 * LSPS0 (bLIP-50): JSON-RPC 2.0 between a node and its LSP inside lightning custom messages of type
 * 37913, the body being the UTF-8 JSON text. One instance per node: it is LDK's custom message handler,
 * keeps the requests this node sent until their answers come, and hands requests it receives to `serve`
 * (an LSP's side). Like every LDK callback, none of these may throw.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import type { Log } from "./chain";
import {
  LSPS_FEATURE_BIT,
  LSPS_MESSAGE_TYPE,
  LspsRpcError,
  RPC_INTERNAL_ERROR,
  RPC_PARSE_ERROR,
} from "./lsps-rpc";

const REQUEST_TIMEOUT_MS = 15_000;
const text = new TextEncoder();
const untext = new TextDecoder();

/** Answers one request from `peer` (hex pubkey): the result, or throws `LspsRpcError`. */
export type LspsServe = (peer: string, method: string, params: Record<string, unknown>) => Promise<unknown>;

interface Waiting {
  readonly peer: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (e: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** The bindings hand message types over as signed 16-bit numbers. */
const isLsps = (type: number) => (type & 0xffff) === LSPS_MESSAGE_TYPE;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const message = (body: Uint8Array): ldk.Type =>
  ldk.Type.new_impl({
    type_id: () => LSPS_MESSAGE_TYPE,
    debug_str: () => "LSPS0 message",
    write: () => body,
  } as ldk.TypeInterface);

export class Lsps0 {
  private readonly outbox: { peer: string; body: Uint8Array }[] = [];
  private readonly waiting = new Map<string, Waiting>();
  /** Set on an LSP's node: answers requests. A node without it ignores requests, as clients do. */
  serve: LspsServe | null = null;

  constructor(
    private readonly opts: {
      /** Makes the node send what was queued soon (its background tick). */
      readonly wake: () => void;
      readonly log: Log;
      /** Whether this node tells its peers it is an LSP (feature bit 729). */
      readonly advertise: boolean;
    },
  ) {}

  /** Sends a request to `peer` and answers its result; rejects with `LspsRpcError`, or on timeout or disconnect. */
  request(
    peer: string,
    method: string,
    params: Record<string, unknown>,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<unknown> {
    const id = hex.encode(crypto.getRandomValues(new Uint8Array(12)));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`The LSP did not answer ${method}`));
      }, timeoutMs);
      this.waiting.set(id, { peer, resolve, reject, timer });
      this.send(peer, { jsonrpc: "2.0", id, method, params });
    });
  }

  private send(peer: string, body: Record<string, unknown>): void {
    this.outbox.push({ peer, body: text.encode(JSON.stringify(body)) });
    this.opts.wake();
  }

  private receive(peer: string, body: Uint8Array): void {
    let msg: unknown;
    try {
      msg = JSON.parse(untext.decode(body));
    } catch {
      msg = null;
    }
    if (!isObject(msg) || msg.jsonrpc !== "2.0") {
      this.opts.log("info", `LSPS0: unreadable message from ${peer}`);
      if (this.serve)
        this.send(peer, {
          jsonrpc: "2.0",
          id: null,
          error: { code: RPC_PARSE_ERROR, message: "parse error" },
        });
      return;
    }
    if (typeof msg.method === "string") {
      void this.answer(peer, msg.id, msg.method, msg.params);
      return;
    }
    const id = typeof msg.id === "string" ? msg.id : "";
    const w = this.waiting.get(id);
    // Only the peer asked may answer.
    if (!w || w.peer !== peer) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    if (isObject(msg.error)) {
      const code = typeof msg.error.code === "number" ? msg.error.code : RPC_INTERNAL_ERROR;
      const text = typeof msg.error.message === "string" ? msg.error.message : "error";
      w.reject(new LspsRpcError(code, text, msg.error.data));
    } else if ("result" in msg) {
      w.resolve(msg.result);
    } else {
      w.reject(new LspsRpcError(RPC_INTERNAL_ERROR, "The answer has neither result nor error"));
    }
  }

  private async answer(peer: string, id: unknown, method: string, params: unknown): Promise<void> {
    const serve = this.serve;
    if (!serve || typeof id !== "string") return;
    try {
      const result = await serve(peer, method, isObject(params) ? params : {});
      this.send(peer, { jsonrpc: "2.0", id, result });
    } catch (e) {
      const error =
        e instanceof LspsRpcError
          ? { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) }
          : { code: RPC_INTERNAL_ERROR, message: "Internal error" };
      this.send(peer, { jsonrpc: "2.0", id, error });
    }
  }

  private features<T extends ldk.InitFeatures | ldk.NodeFeatures>(f: T): T {
    if (this.opts.advertise) f.set_optional_custom_bit(LSPS_FEATURE_BIT);
    return f;
  }

  /** The handler given to LDK's peer manager. */
  handler(): ldk.CustomMessageHandler {
    return ldk.CustomMessageHandler.new_impl(
      {
        handle_custom_message: (msg: ldk.Type, sender: Uint8Array) => {
          try {
            if (isLsps(msg.type_id())) this.receive(hex.encode(sender), msg.write());
          } catch (e) {
            this.opts.log("error", `LSPS0 message: ${String(e)}`);
          }
          return ldk.Result_NoneLightningErrorZ.constructor_ok();
        },
        get_and_clear_pending_msg: () => {
          try {
            return this.outbox
              .splice(0)
              .map((m) => ldk.TwoTuple_PublicKeyTypeZ.constructor_new(hex.decode(m.peer), message(m.body)));
          } catch (e) {
            this.opts.log("error", `LSPS0 send: ${String(e)}`);
            return [];
          }
        },
        peer_disconnected: (node: Uint8Array) => {
          try {
            const peer = hex.encode(node);
            for (const [id, w] of this.waiting) {
              if (w.peer !== peer) continue;
              this.waiting.delete(id);
              clearTimeout(w.timer);
              w.reject(new Error("The LSP disconnected"));
            }
          } catch (e) {
            this.opts.log("error", `LSPS0 disconnect: ${String(e)}`);
          }
        },
        peer_connected: () => ldk.Result_NoneNoneZ.constructor_ok(),
        provided_node_features: () => this.features(ldk.NodeFeatures.constructor_empty()),
        provided_init_features: () => this.features(ldk.InitFeatures.constructor_empty()),
      } as ldk.CustomMessageHandlerInterface,
      {
        read: (type: number, buffer: Uint8Array) => {
          if (!isLsps(type))
            return ldk.Result_COption_TypeZDecodeErrorZ.constructor_ok(ldk.Option_TypeZ.constructor_none());
          return ldk.Result_COption_TypeZDecodeErrorZ.constructor_ok(
            ldk.Option_TypeZ.constructor_some(message(buffer.slice())),
          );
        },
      } as ldk.CustomMessageReaderInterface,
    );
  }
}
