/**
 * The page's side of a closing tab: the device lock's release the worker made ready goes out with
 * `keepalive` (it outlives the page), once, and nothing goes out once the worker withdrew it.
 */
import { describe, expect, it } from "vitest";
import { WalletClient } from "./client";
import type { ClosingRequest, FromWorker } from "./protocol";

const worker = () => {
  const w = {
    onmessage: null as ((ev: MessageEvent<FromWorker>) => void) | null,
    postMessage: () => undefined,
    terminate: () => undefined,
    say: (m: FromWorker) => w.onmessage?.({ data: m } as MessageEvent<FromWorker>),
  };
  return w;
};

const release: ClosingRequest = {
  url: "http://127.0.0.1:1/storage/deleteObject",
  headers: { "content-type": "application/octet-stream", authorization: "02ab" },
  body: new Uint8Array([1, 2, 3]),
};

describe("a closing page", () => {
  it("sends the lock's release the worker made ready, with keepalive, once", () => {
    const w = worker();
    const client = new WalletClient(w);
    const sent: [string, RequestInit | undefined][] = [];
    const fetchFn = async (url: string | URL | Request, init?: RequestInit) => {
      sent.push([String(url), init]);
      return new Response(null, { status: 200 });
    };
    // Nothing made ready yet: nothing sent.
    client.pageClosing(fetchFn);
    expect(sent).toEqual([]);
    w.say({ kind: "lock_release", request: release });
    client.pageClosing(fetchFn);
    client.pageClosing(fetchFn);
    expect(sent).toEqual([
      [release.url, { method: "POST", headers: release.headers, body: release.body, keepalive: true }],
    ]);
  });

  it("sends nothing once the worker withdrew it (the lock given up or lost)", () => {
    const w = worker();
    const client = new WalletClient(w);
    const sent: string[] = [];
    w.say({ kind: "lock_release", request: release });
    w.say({ kind: "lock_release", request: null });
    client.pageClosing(async (url) => {
      sent.push(String(url));
      return new Response(null);
    });
    expect(sent).toEqual([]);
  });
});
