import {
  ArrowDownLeft,
  ArrowUpRight,
  CircleUserRound,
  House,
  ScanLine,
  Search,
  Settings,
} from "lucide-react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { useView } from "./wallet";

/** The routes the chrome links to, in order (desktop side navigation). */
const SIDE_ITEMS = [
  { href: "/", key: "nav.home", Icon: House },
  { href: "/send", key: "nav.send", Icon: ArrowUpRight },
  { href: "/search", key: "nav.search", Icon: Search },
  { href: "/receive", key: "nav.receive", Icon: ArrowDownLeft },
  { href: "/scanner", key: "nav.scan", Icon: ScanLine },
  { href: "/profile", key: "profile.title", Icon: CircleUserRound },
  { href: "/settings", key: "nav.settings", Icon: Settings },
] as const;

/** Paths that show the floating Send / Receive / Scan group on a phone (spec 1 §2: home). */
export const ACTION_PATHS: readonly string[] = ["/"];

/** The side navigation of a laptop: only once a wallet exists (the welcome screen has nowhere else to go). */
export function SideNav({ noWallet = false }: { readonly noWallet?: boolean }) {
  const [path] = useLocation();
  const { t } = useI18n();
  const wallet = useView("wallet");
  if (wallet ? !wallet.exists : noWallet) return null;
  return (
    <nav className="side-nav" aria-label={t("nav.main")}>
      <ul>
        {SIDE_ITEMS.map(({ href, key, Icon }) => (
          <li key={href}>
            {/* The page itself, or the section a sub-page belongs to (a settings page under Settings). */}
            <Link
              href={href}
              aria-current={
                path === href ? "page" : href !== "/" && path.startsWith(`${href}/`) ? "true" : undefined
              }
            >
              <Icon aria-hidden="true" size={20} />
              {t(key)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The Send / Receive / Scan group on small screens: only where the spec puts it (home) and only once a
 * wallet exists. Home draws it right after its balance, so the keyboard reaches Send from the top in a few
 * presses. It is a bar of equal thirds at the bottom, so it never leaves the screen, and home keeps
 * room below its content so it never covers it.
 */
export function MobileActions() {
  const { t } = useI18n();
  const [path] = useLocation();
  const wallet = useView("wallet");
  if (!ACTION_PATHS.includes(path) || !wallet?.exists) return null;
  return (
    <nav className="mobile-actions" aria-label={t("nav.actions")}>
      <Link href="/send" className="fab">
        <ArrowUpRight aria-hidden="true" size={20} />
        <span>{t("nav.send")}</span>
      </Link>
      <Link href="/receive" className="fab">
        <ArrowDownLeft aria-hidden="true" size={20} />
        <span>{t("nav.receive")}</span>
      </Link>
      <Link href="/scanner" className="fab">
        <ScanLine aria-hidden="true" size={20} />
        <span>{t("nav.scan")}</span>
      </Link>
    </nav>
  );
}
