import { CircleUserRound, Settings } from "lucide-react";
import { Link, useSearch } from "wouter";
import { useEffect, useState } from "react";
import { whenIdle } from "../../ui/idle";
import { useI18n } from "../../i18n/intl";
import { Avatar } from "../../ui/profile";
import { Logo } from "../../ui/Logo";
import { useView, useWallet } from "../../ui/wallet";
import { useSyncExternalStore } from "react";
import { ActivityList } from "./ActivityList";
import { FriendsZaps } from "./FriendsZaps";
import { BalanceCard } from "./BalanceCard";
import { ShutdownWarning } from "./ShutdownWarning";
import { HomeStatus } from "./HomeStatus";
import { ContactsStrip } from "./ContactsStrip";
import { HomeRequests } from "./HomeRequests";
import { NwcRequests } from "./NwcRequests";
import { homeProgress } from "./progress";
import { nextTab } from "./tabs";

const TABS = ["me", "friends", "requests"] as const;
type Tab = (typeof TABS)[number];

/**
 * Home (spec 1 §2): header, the status line, the balance card with the actions after it, the three tabs
 * of activity, then the contacts. On a phone the balance, the actions and the first payments fit the screen.
 */
export function Home() {
  const { t } = useI18n();
  const search = new URLSearchParams(useSearch());
  const preset = search.get("tab");
  const [tab, setTab] = useState<Tab>(TABS.includes(preset as Tab) ? (preset as Tab) : "me");
  const wallet = useView("wallet");
  const nwc = useView("nwc");
  const profile = useView("profile");
  const live = useView("live");
  const client = useWallet();
  const stage = useSyncExternalStore(client.subscribe, () => client.stage);
  const safeMode = wallet?.safe_mode ?? false;
  const requests = (nwc?.pending ?? []).filter((p) => p.expiry * 1000 > Date.now()).length;
  const tabs = safeMode ? TABS.filter((x) => x !== "requests") : TABS;
  // The wallet's boot, then the lightning node starting; home and on-chain work meanwhile.
  const progress = homeProgress(stage, live);
  // Home is drawn with the worker's views: once the browser is idle, the worker may start what would
  // compete with it (the network graph's first sync).
  const made = wallet?.exists ?? false;
  useEffect(
    () => (stage === "done" && made ? whenIdle(() => client.homeShown()) : undefined),
    [stage, made, client],
  );
  const onTabKey = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const next = nextTab(tabs, tab, e.key);
    if (next === null) return;
    e.preventDefault();
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return (
    // A new wallet's home shows while the worker is still making it: nothing on it acts until it exists.
    <main className="screen home" inert={!made} aria-busy={made ? undefined : true}>
      <header className="home-header">
        <Link href="/profile" className="avatar-link" aria-label={t("profile.open")}>
          {profile?.profile && !profile.profile.deleted ? (
            <Avatar
              picture={profile.profile.picture}
              name={profile.profile.display_name ?? profile.profile.name}
            />
          ) : (
            <span className="avatar" aria-hidden="true">
              <CircleUserRound size={28} />
            </span>
          )}
        </Link>
        <h1 className="visually-hidden">{t("home.title")}</h1>
        <Logo />
        <Link href="/settings" className="icon-button" aria-label={t("nav.settings")}>
          <Settings aria-hidden="true" size={24} />
        </Link>
      </header>
      {/* Home's one status line, above the balance: the most pressing notice and its one action. */}
      <HomeStatus />
      <ShutdownWarning />
      {/* The balance, then the actions (Send, Receive, Scan: the phone's bottom bar, next in the keyboard's
          order), then the history. */}
      <BalanceCard progress={progress} />
      {/* WAI-ARIA tabs: one tab stop, arrows and Home/End move between tabs and select them. */}
      <div role="tablist" aria-label={t("home.tabs")} className="tabs" onKeyDown={onTabKey}>
        {tabs.map((x) => (
          <button
            key={x}
            type="button"
            role="tab"
            id={`tab-${x}`}
            aria-selected={tab === x}
            aria-controls={`panel-${x}`}
            tabIndex={tab === x ? 0 : -1}
            className="tab"
            onClick={() => setTab(x)}
          >
            {t(`home.tab_${x}`)}
            {x === "requests" && requests > 0 ? (
              <span className="count-badge">
                <span aria-hidden="true">{requests}</span>
                <span className="visually-hidden">{t("home.requests_count", { count: requests })}</span>
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === "me" ? <ActivityList /> : null}
        {tab === "friends" ? <FriendsZaps /> : null}
        {tab === "requests" && !safeMode ? <NwcRequests /> : null}
      </section>
      {safeMode ? null : <ContactsStrip />}
      <HomeRequests />
    </main>
  );
}
