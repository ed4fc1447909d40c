import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { boot, type BootState } from "./boot";
import { BUILD_DEFAULTS } from "./build";
import { resolveConfig } from "./config";
import { I18nProvider, initialLanguage, loadMessages } from "./i18n/intl";
import { BootError, Loading } from "./screens/Loading";
import { applyConnectPolicy } from "./security/csp";
import { ToastProvider } from "./ui/toast";
import "./ui/app.css";

const config = resolveConfig(localStorage, BUILD_DEFAULTS);
// Before anything connects: only this origin and the servers of this configuration.
applyConnectPolicy(document, config);

function Root() {
  const [state, setState] = useState<BootState>({ stage: "fresh", error: null, client: null });
  useEffect(() => {
    void boot(config, setState);
  }, []);
  if (state.error) return <BootError message={state.error} />;
  // Home renders as soon as the log's views arrive; the progress bar there shows the rest of setup.
  if (!state.client?.views.wallet) return <Loading stage={state.stage} />;
  return <App client={state.client} config={config} />;
}

const start = async () => {
  const lang = initialLanguage();
  const messages = await loadMessages(lang);
  const root = document.getElementById("root");
  if (!root) throw new Error("No #root element");
  createRoot(root).render(
    <StrictMode>
      <I18nProvider initial={{ lang, messages }}>
        <ToastProvider>
          <Root />
        </ToastProvider>
      </I18nProvider>
    </StrictMode>,
  );
};
void start();
