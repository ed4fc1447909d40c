import { describe, expect, it } from "vitest";
import { serviceWorkerSource } from "./source";

type Listener = (event: unknown) => void;

/** Runs the service worker's source against a recorded `self`, `caches` and `fetch`. */
const load = () => {
  const listeners = new Map<string, Listener>();
  const cached: { path: string; vary: string | null }[] = [];
  const self = {
    location: { origin: "https://wallet.example" },
    addEventListener: (type: string, f: Listener) => listeners.set(type, f),
    clients: { claim: async () => undefined },
    skipWaiting: () => undefined,
  };
  const cache = {
    put: async (req: unknown, res: Response) => {
      cached.push({ path: String(req), vary: res.headers.get("vary") });
    },
  };
  const caches = {
    open: async () => cache,
    keys: async () => [],
    delete: async () => true,
    match: async () => undefined,
  };
  const fetchFn = async () => new Response("network", { headers: { vary: "Origin" } });
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
  return { listeners, cached, fetchEvent };
};

describe("service worker", () => {
  it("caches only this build's shell files at install, each found by its address whatever the server's Vary", async () => {
    const sw = load();
    const waits: Promise<unknown>[] = [];
    sw.listeners.get("install")?.({ waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
    expect(sw.cached).toEqual([
      { path: "/", vary: null },
      { path: "/assets/app.js", vary: null },
    ]);
  });

  it("routes the shell's files to its own cache and pages to the network raced with it, where the browser can", async () => {
    const sw = load();
    const routes: unknown[] = [];
    const waits: Promise<unknown>[] = [];
    sw.listeners.get("install")?.({
      addRoutes: async (r: unknown[]) => {
        routes.push(...r);
      },
      waitUntil: (p: Promise<unknown>) => waits.push(p),
    });
    await Promise.all(waits);
    expect(routes).toEqual([
      {
        condition: { urlPattern: { pathname: "/assets/*" }, requestMethod: "GET" },
        source: { cacheName: "shell-b1" },
      },
      { condition: { requestMode: "navigate" }, source: "race-network-and-fetch-handler" },
    ]);
  });

  it("installs without routes where the browser has no static routing, and when it refuses them", async () => {
    for (const addRoutes of [undefined, async () => Promise.reject(new TypeError("unsupported"))]) {
      const sw = load();
      const waits: Promise<unknown>[] = [];
      sw.listeners.get("install")?.({ addRoutes, waitUntil: (p: Promise<unknown>) => waits.push(p) });
      await Promise.all(waits);
      expect(sw.cached.map((c) => c.path)).toEqual(["/", "/assets/app.js"]);
    }
  });

  it("never answers or stores server calls: other origins, other paths and non-GET requests go to the network", () => {
    const sw = load();
    expect(sw.fetchEvent("https://mempool.space/api/address/bc1q/utxo")).toBe(false);
    expect(sw.fetchEvent("http://127.0.0.1:3002/blocks/tip/height")).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/api/v1/prices")).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/assets/app.js", { method: "POST" })).toBe(false);
    expect(sw.fetchEvent("https://wallet.example/assets/app.js")).toBe(true);
    expect(sw.cached).toEqual([]);
    // The one write is the install's, of the shell's files.
    expect(serviceWorkerSource("b1", ["/"]).match(/\.put\(/g)).toHaveLength(1);
    expect(serviceWorkerSource("b1", ["/"])).toMatch(/cache\.put\(SHELL\[i\]/);
    expect(serviceWorkerSource("b1", ["/"])).not.toMatch(/indexedDB|localStorage/);
  });
});
