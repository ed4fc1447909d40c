import welcome from "virtual:welcome-screens";
import { BUILD_DEFAULTS } from "./build";
import { resolveConfig, servicesBase } from "./config";
import { initialLanguage } from "./i18n/languages";
import type { AllViews } from "./projections/live";
import { applyConnectPolicy } from "./security/csp";
import { paintWelcome } from "./welcome/first-paint";
import { startWorkerEarly } from "./boot";
import { readViewsCache } from "./views-cache";
import { readWalletFlag } from "./wallet-flag";
import { loadPublished } from "./settings/published";
import "./ui/app.css";

// A self-hosted build's first visit reads what its services publish (their relays, ...) before anything
// connects; a later visit uses what it kept and refreshes it for the next.
await loadPublished(servicesBase(BUILD_DEFAULTS), localStorage);
const config = resolveConfig(localStorage, BUILD_DEFAULTS);
// Before anything connects: only this origin and the servers of this configuration.
applyConnectPolicy(document, config);

// A browser that holds a wallet decides at once, from the first script: the worker starts, the views it
// kept last are read, and home's code comes beside the app's, all in parallel, so home can be drawn from
// those views before any engine, Automerge or the worker's own start.
const returning = readWalletFlag(config.network) === "1";
let cached: Promise<Partial<AllViews> | null> = Promise.resolve(null);
if (returning) {
  startWorkerEarly(config.network);
  cached = readViewsCache(config.network);
  void import("./screens/home/Home").catch(() => undefined);
}

// Their files are asked for at once, beside the app's code, and bound to their screens once the small list
// of them arrives, so a press lands on them without a suspended frame.
const fetchFirstRun = () => {
  void import("./screens/profile/NewProfile").catch(() => undefined);
  void import("./screens/home/Home").catch(() => undefined);
  void import("./screens/first-run").then(({ preloadFirstRun }) => preloadFirstRun());
};

let started = false;
const startApp = () => {
  if (started) return;
  started = true;
  void import("./start").then(({ start }) => start(config, painted, cached));
  // What "New wallet" leads to (the profile step, home) comes beside the app's code, not after a press.
  if (painted) fetchFirstRun();
};

// A newcomer sees the welcome screen before the app's code arrives; the app draws over it once it does,
// its download starting once the screen is on it (a task queued from a frame callback runs after that
// frame is painted), or at once when "New wallet" is pressed first, beside the step the press leads to.
// Anyone else's page, and a page in a background tab (it paints no frames), starts the app at once.
const painted = paintWelcome(
  welcome,
  { root: document.getElementById("root"), path: location.pathname, search: location.search },
  readWalletFlag(config.network),
  initialLanguage(),
  () => {
    startWorkerEarly(config.network, undefined, true);
    startApp();
  },
);
if (painted && document.visibilityState === "visible") {
  requestAnimationFrame(() => setTimeout(startApp, 0));
  document.addEventListener("visibilitychange", startApp, { once: true });
} else startApp();
