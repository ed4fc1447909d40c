import type { Page, Request, Route } from "@playwright/test";
import { createWallet, expect, syncNow, test } from "./fixtures";

// The requests are the page's own: no service worker answers them from its cache.
test.use({ serviceWorkers: "block" });

/** A request's path without the build's content hash: `/assets/Home-3f9aB_x1.js` reads `/assets/Home.js`. */
const named = (r: Request) => new URL(r.url()).pathname.replace(/-[\w-]{8}\.(js|css|wasm)$/, ".$1");
/** Icons and the manifest are the browser's, not the app's. */
const ours = (path: string) => !/\.(svg|png|webmanifest)$/.test(path);

/** The display snapshot the worker keeps, in the wallet's database: saved once the worker has shown views. */
const viewsSaved = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open("mutiny-wallet-regtest");
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction("snapshots").objectStore("snapshots").get("views");
          get.onsuccess = () => {
            db.close();
            resolve(Boolean(get.result));
          };
          get.onerror = () => resolve(false);
        };
      }),
  );

test("a returning wallet asks for everything home needs at once from its first script, and draws home before its worker runs", async ({
  page,
}) => {
  await createWallet(page);
  await expect.poll(() => viewsSaved(page)).toBe(true);
  // The page being left is let finish what it fetches on its own (code and wasm loaded after home), so
  // none of it is taken for the reload's; a page that never goes quiet is reloaded anyway.
  await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);

  // Every answer after the first script is held back: what the page asks for meanwhile is what it asks for
  // at once, in parallel. Anything it could only ask for after another answer (a request in series) is not.
  const started: string[] = [];
  const origin = new URL(page.url()).origin;
  // The page's own requests, from the reload's document on (the page being left and its worker may still
  // ask for something meanwhile; a worker's requests are its own).
  const fromPage = (r: Request) => {
    try {
      return Boolean(r.frame());
    } catch {
      return false;
    }
  };
  const onRequest = (r: Request) => {
    if (started.length === 0 && !r.isNavigationRequest()) return;
    if (new URL(r.url()).origin === origin && fromPage(r)) started.push(named(r));
  };
  page.on("request", onRequest);
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/assets\//, (route) => {
    const path = named(route.request());
    if (path === "/assets/index.js" || path === "/assets/index.css") return route.continue();
    // The worker stays held until home is drawn: home must not wait for it, nor for any engine or wasm.
    if (holding || path === "/assets/worker.js") held.push(route);
    else return route.continue();
  });
  await page.reload({ waitUntil: "commit" });
  await expect
    .poll(() => started.filter(ours))
    .toEqual(expect.arrayContaining(["/assets/Home.js", "/assets/start.js", "/assets/worker.js"]));
  const firstWave = started.filter(ours);

  // In the order they start: the page, its first script and style, then what that script asks for at once
  // (home's code, the app's, the worker: in whichever order the script's own awaits let them start).
  expect(firstWave.slice(0, 3)).toEqual(["/", "/assets/index.js", "/assets/index.css"]);
  test.info().annotations.push({ type: "requests before home", description: firstWave.join(", ") });
  // The payment-request parsers (with their curve and script libraries) are not on home's path.
  expect(firstWave).not.toContain("/assets/incoming.js");

  holding = false;
  for (const r of held.splice(0)) {
    if (named(r.request()) === "/assets/worker.js") held.push(r);
    else await r.continue();
  }
  // Home with its balance, drawn from the views the worker kept last, while its script is still held.
  await expect(page.getByTestId("onchain-balance")).toHaveText("0 sats");
  await expect(page.getByRole("tab", { name: "Just me" })).toBeVisible();
  page.off("request", onRequest);
  // Nothing was asked for in series before home: the list is the first wave's, as it was.
  expect(started.filter(ours)).toEqual(firstWave);

  // The worker, released, takes over: the wallet answers commands again.
  for (const r of held.splice(0)) await r.continue();
  await page.unroute(/\/assets\//);
  await syncNow(page);
});
