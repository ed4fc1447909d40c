import { useEffect, useSyncExternalStore } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import type { WalletClient } from "./commands/client";
import type { WalletConfig } from "./commands/protocol";
import { Home } from "./screens/home/Home";
import { NotFound } from "./screens/NotFound";
import { Receive } from "./screens/receive/Receive";
import { Redeem } from "./screens/redeem/Redeem";
import { Scanner } from "./screens/scanner/Scanner";
import { Search } from "./screens/search/Search";
import { Send } from "./screens/send/Send";
import { Backup } from "./screens/settings/Backup";
import { CurrencySettings } from "./screens/settings/Currency";
import { EmergencyKit } from "./screens/settings/EmergencyKit";
import { EncryptSettings } from "./screens/settings/Encrypt";
import { LanguageSettings } from "./screens/settings/Language";
import { Restore } from "./screens/settings/Restore";
import { ServersSettings } from "./screens/settings/Servers";
import { SettingsRoot } from "./screens/settings/SettingsRoot";
import { Channels } from "./screens/settings/Channels";
import { Admin } from "./screens/settings/Admin";
import { Swap } from "./screens/swap/Swap";
import { Setup } from "./screens/Setup";
import { ConfigContext } from "./ui/config";
import { DecryptDialog } from "./ui/DecryptDialog";
import { ErrorBoundary } from "./ui/ErrorBoundary";
import { registerProtocolHandlers } from "./ui/protocol-handlers";
import { MobileActions, SideNav } from "./ui/Nav";
import { UpdateBanner } from "./ui/UpdateBanner";
import { useView, WalletProvider } from "./ui/wallet";

/** Paths a person may open with no wallet yet. */
const WITHOUT_WALLET = ["/setup", "/setup/restore", "/settings/emergencykit"];

function Routes() {
  const wallet = useView("wallet");
  const [path] = useLocation();
  const skipSetup = new URLSearchParams(location.search).has("skip_setup");
  if (wallet && !wallet.exists && !skipSetup && !WITHOUT_WALLET.includes(path))
    return <Redirect to="/setup" replace />;
  return (
    <Switch>
      <Route path="/" component={Home} />
      <Route path="/setup" component={Setup} />
      <Route path="/receive" component={Receive} />
      <Route path="/send" component={Send} />
      <Route path="/search" component={Search} />
      <Route path="/scanner" component={Scanner} />
      <Route path="/redeem" component={Redeem} />
      <Route path="/settings" component={SettingsRoot} />
      <Route path="/settings/backup" component={Backup} />
      <Route path="/settings/restore" component={Restore} />
      <Route path="/setup/restore" component={Restore} />
      <Route path="/settings/currency" component={CurrencySettings} />
      <Route path="/settings/language" component={LanguageSettings} />
      <Route path="/settings/emergencykit" component={EmergencyKit} />
      <Route path="/settings/channels" component={Channels} />
      <Route path="/settings/admin" component={Admin} />
      <Route path="/swap" component={Swap} />
      <Route path="/settings/encrypt" component={EncryptSettings} />
      <Route path="/settings/servers" component={ServersSettings} />
      <Route component={NotFound} />
    </Switch>
  );
}

/** Keeps the previous location in navigation state so the back control can return to it. */
function RememberPrevious() {
  const [path] = useLocation();
  useEffect(() => {
    const prev = sessionStorage.getItem("current_path");
    if (prev && prev !== path && !(history.state as { previous?: string } | null)?.previous)
      history.replaceState({ ...(history.state ?? {}), previous: prev }, "");
    sessionStorage.setItem("current_path", path);
  }, [path]);
  return null;
}

export function App({ client, config }: { client: WalletClient; config: WalletConfig }) {
  useSyncExternalStore(client.subscribe, () => client.views);
  useEffect(() => registerProtocolHandlers(location.origin), []);
  return (
    <ConfigContext.Provider value={config}>
      <WalletProvider client={client}>
        <RememberPrevious />
        <div className="layout">
          <SideNav />
          <div className="content">
            <UpdateBanner />
            <ErrorBoundary>
              <Routes />
              <DecryptDialog />
            </ErrorBoundary>
          </div>
          <MobileActions />
        </div>
      </WalletProvider>
    </ConfigContext.Provider>
  );
}
