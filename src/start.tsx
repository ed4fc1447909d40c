import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { beginNewWallet, Home } from "./screens/first-run";
import type { AllViews } from "./projections/live";
import { boot, type BootState, knownWallet, startEmergency, startWorkerEarly } from "./boot";
import { WalletClient } from "./commands/client";
import type { WalletConfig } from "./config";
import { I18nProvider, loadMessages } from "./i18n/intl";
import { initialLanguage } from "./i18n/languages";
import { BootError, EmergencyBanner, Loading } from "./screens/Loading";
import { EmergencyContext } from "./ui/emergency";
import { ToastProvider } from "./ui/toast";
import { earlyPressWaiting, takeEarlyPress } from "./welcome/first-paint";

/** The screens' client: it exists before the worker does, which joins it once the first screen is up. */
const client = new WalletClient();
// A tab closed gives its device lock up on the way out; a page kept in the back-forward cache keeps it.
addEventListener("pagehide", (e: PageTransitionEvent) => {
  if (!e.persisted) client.pageClosing();
});

// The browser back online, or the page shown again (a phone unlocked, a tab brought back): the node redials
// its peers at once instead of at its next tick.
const wake = () => {
  if (document.visibilityState === "visible") client.wake();
};
addEventListener("online", wake);
document.addEventListener("visibilitychange", wake);

/** After the next paint: a task queued from inside a frame callback runs once that frame is on screen. */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function Root({ config, noWallet, seeded }: { config: WalletConfig; noWallet: boolean; seeded: boolean }) {
  const [state, setState] = useState<BootState>({ stage: "fresh", error: null, client: null });
  useEffect(() => {
    // With no wallet here, the welcome screen shows at once and the worker starts behind it, so its
    // script and wasm are warm by the time "New wallet" is pressed.
    // A returning wallet drawn from its last views: its worker (made already, its script loaded) is told to
    // start, and so to load its engines, LDK and Automerge, once home is on screen, so none of that competes
    // with drawing it.
    void boot(config, setState, { client, workerAfter: noWallet || seeded ? afterPaint() : undefined });
  }, [config, noWallet, seeded]);
  const [failure, setFailure] = useState<string | null>(null);
  if (state.error) {
    const error = state.error;
    const emergency = () => {
      // The kit runs in this tab, which keeps the wallet's lock, through a worker with no engines.
      setFailure(error);
      history.replaceState(null, "", "/settings/emergencykit");
      startEmergency(config, client);
    };
    return <BootError message={error} onEmergency={state.emergency ? undefined : emergency} />;
  }
  // Home renders as soon as the log's views arrive; the progress bar there shows the rest of setup.
  if (!noWallet && !client.views.wallet) return <Loading stage={state.stage} />;
  if (state.emergency)
    return (
      <EmergencyContext.Provider value={{ failure: failure ?? "" }}>
        <EmergencyBanner />
        <App client={client} config={config} />
      </EmergencyContext.Provider>
    );
  return <App client={client} config={config} noWallet={noWallet} />;
}

/**
 * The app, over the welcome screen `main.tsx` may have painted already. `cached`: the views the worker kept
 * last, read by the page (`views-cache.ts`), from which a returning wallet's home is drawn at once.
 */
export const start = async (
  config: WalletConfig,
  welcomePainted = false,
  cached: Promise<Partial<AllViews> | null> = Promise.resolve(null),
) => {
  // A wallet here: its worker's script loads while this page renders (it starts once the boot holds the lock).
  startWorkerEarly(config.network);
  const lang = initialLanguage();
  const [messages, wallet, views] = await Promise.all([
    loadMessages(lang),
    knownWallet(config.network),
    cached.catch(() => null),
  ]);
  // A wallet here opens on home: its screen's code comes while the worker starts. With the last views at
  // hand, the first frame is home itself, so its code is waited for (it was asked for by the first script).
  if (wallet === "maybe") {
    const home = Home.preload();
    if (views) {
      client.seed(views);
      await home.catch(() => undefined);
    } else home.catch(() => undefined);
  }
  // No wallet, and "New wallet" pressed on the welcome screen before the app arrived: the wallet is asked
  // for now, and the app's first frame is the screen the press leads to (the profile step, or home) rather
  // than the welcome screen drawn once more to be left at once.
  else if (welcomePainted && earlyPressWaiting()) {
    takeEarlyPress();
    const next = await beginNewWallet(client, config.network);
    history.replaceState(history.state, "", `${next}${location.search}${location.hash}`);
  }
  // No wallet, and the welcome screen already drawn: the page moves to where it lives before the first
  // frame, so the app's first frame is that screen too (a redirect would show one frame without it).
  else if (welcomePainted && location.pathname !== "/setup")
    history.replaceState(history.state, "", `/setup${location.search}${location.hash}`);
  const root = document.getElementById("root");
  if (!root) throw new Error("No #root element");
  createRoot(root).render(
    <StrictMode>
      <I18nProvider initial={{ lang, messages }}>
        <ToastProvider>
          <Root config={config} noWallet={wallet === "none"} seeded={views !== null && wallet === "maybe"} />
        </ToastProvider>
      </I18nProvider>
    </StrictMode>,
  );
};
