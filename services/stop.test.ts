/**
 * A stop of `npm run services` (SIGTERM, as systemd and Docker send) with a wallet's lightning socket open
 * through its proxy: the socket is closed as going away (1001, so the wallet dials again) and the process
 * drains and exits by itself, well before its own deadline cuts it short (services/main.ts).
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import WebSocket from "ws";
import { GOING_AWAY } from "./proxy";

const root = fileURLToPath(new URL("..", import.meta.url));

// A lightning peer's stand-in: echoes what it is sent.
const peer = createServer((s) => s.pipe(s));
const peerClosed: Promise<void>[] = [];
peer.on("connection", (s) => peerClosed.push(new Promise((r) => s.once("close", () => r()))));
afterAll(() => peer.close());

test("SIGTERM closes proxied sockets as going away and the process exits by itself", async () => {
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", r));
  const peerPort = (peer.address() as { port: number }).port;
  const child = spawn(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, "services/main.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: "0",
      NETWORK: "regtest",
      ESPLORA_URL: "http://127.0.0.1:9",
      PROXY_PORTS: String(peerPort),
      PROXY_ALLOW_PRIVATE: "1",
      HERMES_SECRET: "11".repeat(32),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (d: Buffer) => {
      out += d.toString();
      const found = /services for regtest on (http:\/\/[^,\s"]+),/.exec(out)?.[1];
      if (found) resolve(found);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => reject(new Error(`services exited: ${out}`)));
  });

  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/v1/127_0_0_1/${peerPort}`);
  const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  // The socket carries bytes to the peer and back.
  ws.send(Buffer.from("init"));
  const echo = await new Promise<string>((r) => ws.once("message", (d: Buffer) => r(d.toString())));
  expect(echo).toBe("init");

  child.kill("SIGTERM");
  expect(await closed).toBe(GOING_AWAY);
  expect(await exited).toBe(0);
  await Promise.all(peerClosed);
  const lines = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { msg: string; proxied_sockets_closed?: number });
  expect(lines.find((l) => l.msg === "drained")?.proxied_sockets_closed).toBe(1);
  // It stopped by draining, not by its deadline.
  expect(lines.at(-1)?.msg).toBe("services stopped");
}, 120_000);
