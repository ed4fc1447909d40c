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

// A newcomer sees the welcome screen before the app's code arrives; the app draws over it once it does.
paintWelcome(
  welcome,
  { root: document.getElementById("root"), path: location.pathname, search: location.search },
  readWalletFlag(config.network),
  initialLanguage(),
);
void import("./start").then(({ start }) => start(config));
