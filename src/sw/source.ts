/**
 * The service worker's source, made at build time with the list of the app shell's files. It caches only
 * this origin's static files, when it installs (never API answers, never anything from IndexedDB), serves
 * navigations from the network and falls back to the cached shell offline, and takes over only when the
 * owner asks. Where the browser routes statically, a returning page's files come from the cache without
 * this worker starting, and so with the code the browser compiled when it stored them.
 */
export const serviceWorkerSource = (buildId: string, shell: readonly string[]): string => `
const CACHE = ${JSON.stringify(`shell-${buildId}`)};
const SHELL = ${JSON.stringify(shell)};

// Where the browser routes on its own, without starting this worker (static routing, where it has it): the
// build's files straight from this version's cache (a miss goes to the network), and a page raced between
// the network and the handler below, so going online never waits for this worker to start.
const ROUTES = [
  { condition: { urlPattern: { pathname: "/assets/*" }, requestMethod: "GET" }, source: { cacheName: CACHE } },
  { condition: { requestMode: "navigate" }, source: "race-network-and-fetch-handler" },
];

// Every file of the shell, or none: one that does not arrive whole fails the install, and the version before
// stays. Each is kept without the server's Vary header, so the browser's own lookup (whose requests may
// carry an Origin the install's did not) finds it by its address.
const storeShell = async () => {
  const answers = await Promise.all(
    SHELL.map((path) =>
      fetch(path).then((r) => {
        if (!r.ok) throw new TypeError(path + " answered " + r.status);
        return r;
      }),
    ),
  );
  const cache = await caches.open(CACHE);
  await Promise.all(
    answers.map((r, i) => {
      const headers = new Headers(r.headers);
      headers.delete("vary");
      return cache.put(SHELL[i], new Response(r.body, { status: r.status, statusText: r.statusText, headers }));
    }),
  );
};

self.addEventListener("install", (event) => {
  const routed = typeof event.addRoutes === "function" ? event.addRoutes(ROUTES).catch(() => undefined) : undefined;
  event.waitUntil(Promise.all([routed, storeShell()]));
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
  // Looked up by its own address (the shell's files have no query), which the cache finds by key; the
  // server's Vary headers must not keep the shell from opening offline.
  event.respondWith(
    caches.match(url.origin + url.pathname, { cacheName: CACHE, ignoreVary: true }).then((hit) => hit || fetch(req)),
  );
});
`;
