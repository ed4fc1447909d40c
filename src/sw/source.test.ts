import { describe, expect, it } from "vitest";
import { serviceWorkerSource } from "./source";

type Listener = (event: unknown) => void;

/** Runs the service worker's source against a recorded `self`, `caches` and `fetch`. */
const load = () => {
  const listeners = new Map<string, Listener>();
  const stored: string[][] = [];
  const cached: string[] = [];
  const self = {
    location: { origin: "https://wallet.example" },
    addEventListener: (type: string, f: Listener) => listeners.set(type, f),
    clients: { claim: async () => undefined },
    skipWaiting: () => undefined,
  };
  const cache = {
    addAll: async (urls: string[]) => {
      stored.push(urls);
    },
    put: async (req: unknown) => {
      cached.push(String(req));
    },
  };
  const caches = {
    open: async () => cache,
    keys: async () => [],
    delete: async () => true,
    match: async () => undefined,
  };
  const fetchFn = async () => new Response("network");
  new Function("self", "caches", "fetch", serviceWorkerSource("b1", ["/", "/assets/app.js"]))(
    self,
    caches,
    fetchFn,
  );
  const fetchEvent = (url: string, init: { method?: string; mode?: string } = {}) => {
    let answered = false;
    listeners.get("fetch")?.({
      request: { url, method: init.method ?? "GET", mode: init.mode ?? "cors" },
      respondWith: () => {
        answered = true;
      },
    });
    return answered;
  };
  return { listeners, stored, cached, fetchEvent };
};

describe("service worker", () => {
  it("caches only this build's shell files at install", async () => {
    const sw = load();
    const waits: Promise<unknown>[] = [];
    sw.listeners.get("install")?.({ waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
    expect(sw.stored).toEqual([["/", "/assets/app.js"]]);
  });

  it("never answers or stores server calls: other origins, other paths and non-GET requests go to the network", () => {
    const sw = load();
    expect(sw.fetchEvent("https://mempool.space/api/address/bc1q/utxo")).toBe(false);
    expect(sw.fetchEvent("http://127.0.0.1:3002/blocks/tip/height")).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/api/v1/prices")).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/assets/app.js", { method: "POST" })).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/assets/app.js")).toBe(true);
    expect(sw.cached).toEqual([]);
    expect(serviceWorkerSource("b1", ["/"])).not.toMatch(/\.put\(|indexedDB|localStorage/);
  });
});
