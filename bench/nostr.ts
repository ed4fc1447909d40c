/**
 * The world's nostr relay: events accepted per second from one client (signed beforehand, sent pipelined,
 * timed to the last OK), and fan-out of live events to 50 subscribers.
 */
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import WebSocket from "ws";

const open = (url: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export const benchRelay = async (relayUrl: string) => {
  const sk = generateSecretKey();
  const t = Math.floor(Date.now() / 1000);
  const N = 1000;
  const events = Array.from({ length: N }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: t, tags: [["t", "bench"]], content: `bench note ${i}` }, sk),
  );

  const client = await open(relayUrl);
  let oks = 0;
  let refused = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    client.on("message", (d) => {
      const m = JSON.parse(d.toString());
      if (m[0] !== "OK") return;
      if (m[2] !== true) refused++;
      if (++oks === N) resolve();
    });
    for (const e of events) client.send(JSON.stringify(["EVENT", e]));
  });
  const ms = performance.now() - t0;
  client.close();
  console.log(
    `nostr relay: ${N} signed events from one client accepted in ${ms.toFixed(0)} ms = ${Math.round(N / (ms / 1000)).toLocaleString("en")} events/s${refused ? ` (${refused} refused)` : ""}`,
  );

  // Fan-out: 50 live subscribers; one publisher sends events one at a time, each timed until the last of the
  // 50 has it.
  const S = 50;
  const M = 100;
  const author = generateSecretKey();
  const subscribers = await Promise.all(Array.from({ length: S }, () => open(relayUrl)));
  let waiting: { id: string; left: number; done: () => void } | null = null;
  for (const ws of subscribers)
    ws.on("message", (d) => {
      const m = JSON.parse(d.toString());
      if (m[0] === "EVENT" && m[1] === "fan" && waiting && m[2].id === waiting.id && --waiting.left === 0)
        waiting.done();
    });
  await Promise.all(
    subscribers.map(
      (ws) =>
        new Promise<void>((resolve) => {
          const onEose = (d: WebSocket.RawData) => {
            const m = JSON.parse(d.toString());
            if (m[0] === "EOSE" && m[1] === "fan") {
              ws.off("message", onEose);
              resolve();
            }
          };
          ws.on("message", onEose);
          ws.send(JSON.stringify(["REQ", "fan", { kinds: [1], authors: [getPublicKey(author)], limit: 0 }]));
        }),
    ),
  );
  const live = Array.from({ length: M }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: t, tags: [], content: `fan-out ${i}` }, author),
  );
  const publisher = await open(relayUrl);
  const latencies: number[] = [];
  const f0 = performance.now();
  for (const e of live) {
    const sent = performance.now();
    await new Promise<void>((done) => {
      waiting = { id: e.id, left: S, done };
      publisher.send(JSON.stringify(["EVENT", e]));
    });
    latencies.push(performance.now() - sent);
  }
  const fanMs = performance.now() - f0;
  latencies.sort((a, b) => a - b);
  console.log(
    `nostr relay fan-out to ${S} subscribers: ${M} events one at a time, publish → all ${S} have it p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms; ${Math.round((S * M) / (fanMs / 1000)).toLocaleString("en")} deliveries/s`,
  );
  publisher.close();
  for (const ws of subscribers) ws.close();
};
