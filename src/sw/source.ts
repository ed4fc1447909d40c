/**
 * The service worker's source, made at build time with the list of the app shell's files. It caches only
 * this origin's static files (never API answers, never anything from IndexedDB), serves navigations from
 * the network and falls back to the cached shell offline, and takes over only when the owner asks.
 */
export const serviceWorkerSource = (buildId: string, shell: readonly string[]): string => `
const CACHE = ${JSON.stringify(`shell-${buildId}`)};
const SHELL = ${JSON.stringify(shell)};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("shell-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    event.respondWith(fetch(req).catch(() => caches.match("/", { cacheName: CACHE, ignoreVary: true })));
    return;
  }
  if (!SHELL.includes(url.pathname)) return;
  // Matched by path alone: the server's Vary headers must not keep the shell from opening offline.
  event.respondWith(
    caches.match(url.pathname, { cacheName: CACHE, ignoreVary: true, ignoreSearch: true }).then((hit) => hit || fetch(req)),
  );
});
`;
