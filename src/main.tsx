import welcome from "virtual:welcome-screens";
import { BUILD_DEFAULTS } from "./build";
import { resolveConfig } from "./config";
import { initialLanguage } from "./i18n/languages";
import { applyConnectPolicy } from "./security/csp";
import { paintWelcome } from "./welcome/first-paint";
import { readWalletFlag } from "./wallet-flag";
import "./ui/app.css";

const config = resolveConfig(localStorage, BUILD_DEFAULTS);
// Before anything connects: only this origin and the servers of this configuration.
applyConnectPolicy(document, config);

let started = false;
const startApp = () => {
  if (started) return;
  started = true;
  void import("./start").then(({ start }) => start(config, painted));
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
    startApp();
    void import("./screens/first-run").then(({ preloadFirstRun }) => preloadFirstRun());
  },
);
if (painted && document.visibilityState === "visible") {
  requestAnimationFrame(() => setTimeout(startApp, 0));
  document.addEventListener("visibilitychange", startApp, { once: true });
} else startApp();
