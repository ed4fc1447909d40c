import { Suspense, useEffect, useSyncExternalStore } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import type { WalletClient } from "./commands/client";
import type { WalletConfig } from "./config";
import { bootErrorKind } from "./boot";
import { BootError } from "./screens/Loading";
import { NotFound } from "./screens/NotFound";
import { Home, NewProfile, preloadFirstRun } from "./screens/first-run";
import { Setup } from "./screens/Setup";
import { ConfigContext } from "./ui/config";
import { DecryptDialog } from "./ui/DecryptDialog";
import { ErrorBoundary } from "./ui/ErrorBoundary";
import { markLightningRanHere } from "./ui/prefs";
import { registerProtocolHandlers } from "./ui/protocol-handlers";
import { SideNav } from "./ui/Nav";
import { MAIN_CONTENT_ID, RouteFocus, SkipLink } from "./ui/RouteFocus";
import { UpdateBanner } from "./ui/UpdateBanner";
import { screen } from "./ui/lazy-screen";
import { useMakingWallet } from "./ui/new-wallet";
import { useView, WalletProvider } from "./ui/wallet";

const Receive = screen(() => import("./screens/receive/Receive"), "Receive");
const Redeem = screen(() => import("./screens/redeem/Redeem"), "Redeem");
const Scanner = screen(() => import("./screens/scanner/Scanner"), "Scanner");
const Search = screen(() => import("./screens/search/Search"), "Search");
const Send = screen(() => import("./screens/send/Send"), "Send");
const Backup = screen(() => import("./screens/settings/Backup"), "Backup");
const CurrencySettings = screen(() => import("./screens/settings/Currency"), "CurrencySettings");
const EmergencyKit = screen(() => import("./screens/settings/EmergencyKit"), "EmergencyKit");
const EncryptSettings = screen(() => import("./screens/settings/Encrypt"), "EncryptSettings");
const LanguageSettings = screen(() => import("./screens/settings/Language"), "LanguageSettings");
const Restore = screen(() => import("./screens/settings/Restore"), "Restore");
const ServersSettings = screen(() => import("./screens/settings/Servers"), "ServersSettings");
const SettingsRoot = screen(() => import("./screens/settings/SettingsRoot"), "SettingsRoot");
const Channels = screen(() => import("./screens/settings/Channels"), "Channels");
const Admin = screen(() => import("./screens/settings/Admin"), "Admin");
const Connections = screen(() => import("./screens/settings/Connections"), "Connections");
const Swap = screen(() => import("./screens/swap/Swap"), "Swap");
const Profile = screen(() => import("./screens/profile/Profile"), "Profile");
const EditProfile = screen(() => import("./screens/profile/EditProfile"), "EditProfile");
const ImportProfile = screen(() => import("./screens/profile/ImportProfile"), "ImportProfile");
const Chat = screen(() => import("./screens/chat/Chat"), "Chat");
const Request = screen(() => import("./screens/chat/Request"), "Request");
const NostrKeys = screen(() => import("./screens/settings/NostrKeys"), "NostrKeys");
const Federations = screen(() => import("./screens/federations/Federations"), "Federations");
const AddFederation = screen(() => import("./screens/federations/AddFederation"), "AddFederation");
const SwapLightning = screen(() => import("./screens/federations/SwapLightning"), "SwapLightning");
const Transfer = screen(() => import("./screens/federations/Transfer"), "Transfer");
const LightningAddress = screen(() => import("./screens/settings/LightningAddress"), "LightningAddress");
const Plus = screen(() => import("./screens/settings/Plus"), "Plus");
const Feedback = screen(() => import("./screens/feedback/Feedback"), "Feedback");

/** Paths a person may open with no wallet yet. */
const WITHOUT_WALLET = ["/setup", "/setup/restore", "/settings/emergencykit"];

function Routes({ noWallet }: { noWallet: boolean }) {
  const wallet = useView("wallet");
  const [path] = useLocation();
  const skipSetup = new URLSearchParams(useSearch()).has("skip_setup");
  // Before the worker's first views, a browser known to hold no wallet goes to the welcome screen.
  const none = wallet ? !wallet.exists : noWallet;
  // "New wallet" was pressed: the steps after it show while the worker makes the wallet.
  const making = useMakingWallet();
  // The welcome screen is up: what "New wallet" leads to is bound to its screens at once, so a press lands
  // on them without a suspended frame. The first script asked for their files when it painted the welcome
  // screen, beside the app's own.
  const welcome = none && path === "/setup";
  useEffect(() => {
    if (welcome) preloadFirstRun();
  }, [welcome]);
  if (none && !making && !skipSetup && !WITHOUT_WALLET.includes(path))
    return <Redirect to="/setup" replace />;
  return (
    <Suspense fallback={<p className="screen" aria-busy="true" />}>
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
        <Route path="/settings/connections" component={Connections} />
        <Route path="/swap" component={Swap} />
        <Route path="/settings/federations" component={Federations} />
        <Route path="/addfederation" component={AddFederation} />
        <Route path="/swaplightning" component={SwapLightning} />
        <Route path="/transfer" component={Transfer} />
        <Route path="/settings/encrypt" component={EncryptSettings} />
        <Route path="/settings/servers" component={ServersSettings} />
        <Route path="/chat/:id" component={Chat} />
        <Route path="/request/:id" component={Request} />
        <Route path="/newprofile" component={NewProfile} />
        <Route path="/profile" component={Profile} />
        <Route path="/editprofile" component={EditProfile} />
        <Route path="/importprofile" component={ImportProfile} />
        <Route path="/settings/importprofile" component={ImportProfile} />
        <Route path="/settings/nostrkeys" component={NostrKeys} />
        <Route path="/feedback" component={Feedback} />
        <Route path="/settings/plus" component={Plus} />
        <Route path="/settings/lightningaddress" component={LightningAddress} />
        <Route path="/plus">
          {() => <Redirect to={`/settings/plus${window.location.search}`} replace />}
        </Route>
        <Route component={NotFound} />
      </Switch>
    </Suspense>
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

export function App({
  client,
  config,
  noWallet = false,
}: {
  client: WalletClient;
  config: WalletConfig;
  /** This browser holds no wallet (known before the worker answers): the welcome screen needs no views. */
  noWallet?: boolean;
}) {
  const views = () => client.views;
  useSyncExternalStore(client.subscribe, views, views);
  useEffect(() => registerProtocolHandlers(location.origin), []);
  // Another device runs this wallet's node (its device lock on the storage server): the spec's boot screen,
  // counting the lock's seconds down, then a reload.
  const live = client.views.live;
  // Lightning ran here: should another device hold the wallet later, this one was taken over.
  const running = live?.lightning === "ready";
  useEffect(() => {
    if (running) markLightningRanHere();
  }, [running]);
  if (
    live?.lightning === "failed" &&
    live.lightning_error &&
    bootErrorKind(live.lightning_error) === "already_running"
  )
    return <BootError message={live.lightning_error} seconds={live.lock_remaining_secs ?? undefined} />;
  return (
    <ConfigContext.Provider value={config}>
      <WalletProvider client={client}>
        <RememberPrevious />
        <RouteFocus />
        <SkipLink />
        <div className="layout">
          <SideNav noWallet={noWallet} />
          <div className="content" id={MAIN_CONTENT_ID} tabIndex={-1}>
            <UpdateBanner />
            <ErrorBoundary>
              <Routes noWallet={noWallet} />
              <DecryptDialog />
            </ErrorBoundary>
          </div>
        </div>
      </WalletProvider>
    </ConfigContext.Provider>
  );
}
