import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";

/** The routes the chrome links to, in order (desktop side navigation). */
const SIDE_ITEMS = [
  { href: "/", key: "nav.home" },
  { href: "/send", key: "nav.send" },
  { href: "/search", key: "nav.search" },
  { href: "/receive", key: "nav.receive" },
  { href: "/scanner", key: "nav.scan" },
  { href: "/profile", key: "profile.title" },
  { href: "/settings", key: "nav.settings" },
] as const;

export function SideNav() {
  const [path] = useLocation();
  const { t } = useI18n();
  return (
    <nav className="side-nav" aria-label={t("nav.main")}>
      <ul>
        {SIDE_ITEMS.map((i) => (
          <li key={i.href}>
            <Link href={i.href} aria-current={path === i.href ? "page" : undefined}>
              {t(i.key)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Floating action buttons on small screens. */
export function MobileActions() {
  const { t } = useI18n();
  return (
    <nav className="mobile-actions" aria-label={t("nav.actions")}>
      <Link href="/send" className="fab">
        {t("nav.send")}
      </Link>
      <Link href="/receive" className="fab">
        {t("nav.receive")}
      </Link>
      <Link href="/scanner" className="fab">
        {t("nav.scan")}
      </Link>
    </nav>
  );
}
