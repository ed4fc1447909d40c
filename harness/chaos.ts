/**
 * A bad line between a browser and the world's lightning proxy, for soaks. A wallet whose `proxy` setting is
 * `ws://<world>/chaos/<scope>` reaches its peers through `/chaos/<scope>/v1/<host>/<port>`: the same proxy
 * (`/v1/…`), relayed byte for byte, with what the scope's chaos says:
 *
 *   POST /chaos {scope, latency_ms?}   every byte each way arrives that much later, in order (open sockets too)
 *   POST /chaos {scope, drop: true}    the scope's open sockets are cut (no close handshake, as a dead line)
 *   GET  /chaos/<scope>                {latency_ms, open, dropped, log}: what was done, in order
 *
 * Scopes keep soaks that run beside other tests to their own wallet's line.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer } from "ws";
import { mountInFront } from "./nostr/mount";
import { HttpError, parseJson, type RouteTable } from "./server";

interface Scope {
  latencyMs: number;
  dropped: number;
  readonly open: Set<{ cut: () => void }>;
  readonly log: string[];
}

const PATH = /^\/chaos\/([A-Za-z0-9_-]{1,64})(\/v1\/[^?]+)/;

export const attachChaos = (server: Server, port: number): RouteTable => {
  const scopes = new Map<string, Scope>();
  const scopeOf = (name: string): Scope => {
    let s = scopes.get(name);
    if (!s) {
      s = { latencyMs: 0, dropped: 0, open: new Set(), log: [] };
      scopes.set(name, s);
    }
    return s;
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });

  const relay = (client: WebSocket, scope: Scope, path: string) => {
    const upstream = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    let last = 0;
    // Each byte is held the scope's latency, never overtaking one sent before it.
    const later = (f: () => void) => {
      const at = Math.max(last, Date.now() + scope.latencyMs);
      last = at;
      if (at <= Date.now()) f();
      else setTimeout(f, at - Date.now());
    };
    const early: Buffer[] = [];
    const pair = {
      cut: () => {
        client.terminate();
        upstream.terminate();
      },
    };
    scope.open.add(pair);
    const done = () => {
      scope.open.delete(pair);
      later(() => {
        client.terminate();
        upstream.terminate();
      });
    };
    client.on("message", (d: Buffer) =>
      later(() => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(d);
        else early.push(d);
      }),
    );
    upstream.on("open", () => {
      for (const d of early.splice(0)) upstream.send(d);
    });
    upstream.on("message", (d: Buffer) =>
      later(() => {
        if (client.readyState === WebSocket.OPEN) client.send(d);
      }),
    );
    client.on("close", done);
    upstream.on("close", done);
    client.on("error", done);
    upstream.on("error", done);
  };

  mountInFront(
    server,
    () => false,
    (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const m = PATH.exec(req.url ?? "");
      if (!m) return false;
      const scope = scopeOf(m[1]!);
      wss.handleUpgrade(req, socket, head, (client) => relay(client, scope, m[2]!));
      return true;
    },
  );

  return [
    [
      "POST",
      /^\/chaos$/,
      (_m, body) => {
        const b = parseJson(body);
        if (typeof b.scope !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(b.scope))
          throw new HttpError(400, "scope must be 1-64 letters, digits, - or _");
        const scope = scopeOf(b.scope);
        if (b.latency_ms !== undefined) {
          if (typeof b.latency_ms !== "number" || !(b.latency_ms >= 0) || b.latency_ms > 60_000)
            throw new HttpError(400, "latency_ms must be 0-60000");
          scope.latencyMs = Math.round(b.latency_ms);
          scope.log.push(`${new Date().toISOString()} latency ${scope.latencyMs} ms`);
        }
        let cut = 0;
        if (b.drop === true) {
          for (const pair of [...scope.open]) {
            pair.cut();
            cut++;
          }
          scope.open.clear();
          scope.dropped += cut;
          scope.log.push(`${new Date().toISOString()} dropped ${cut} socket(s)`);
        }
        return { json: { scope: b.scope, latency_ms: scope.latencyMs, dropped: cut } };
      },
    ],
    [
      "GET",
      /^\/chaos\/([A-Za-z0-9_-]{1,64})$/,
      (m) => {
        const s = scopeOf(m[1]!);
        return { json: { latency_ms: s.latencyMs, open: s.open.size, dropped: s.dropped, log: s.log } };
      },
    ],
  ];
};
