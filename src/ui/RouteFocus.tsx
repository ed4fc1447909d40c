import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../i18n/intl";

/** The app's name after each page's own in the document title. */
export const APP_TITLE = "Mutiny Wallet";

/** Where the skip link and every navigation lead: the element holding the routes. */
export const MAIN_CONTENT_ID = "main-content";

/** The document title for a page whose heading reads `heading`. */
export const titleFor = (heading: string | null | undefined): string => {
  const text = heading?.replace(/\s+/g, " ").trim();
  return text ? `${text} · ${APP_TITLE}` : APP_TITLE;
};

/** The first link on the page: straight to the main content, past the navigation. */
export function SkipLink() {
  const { t } = useI18n();
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
      {t("nav.skip_to_content")}
    </a>
  );
}

/**
 * After each navigation, focus moves to the new page's heading (screen readers announce it, keyboards
 * continue from it) and the document title names the page. A page loaded on demand gets both once its
 * heading appears; the first page of a visit keeps the browser's own starting focus.
 */
export function RouteFocus() {
  const [path] = useLocation();
  const first = useRef(true);
  // A redirect while the page loads (no wallet: to the welcome screen) keeps the browser's starting
  // focus, so the skip link stays the first stop; navigations after the person acted move focus.
  const acted = useRef(false);
  useEffect(() => {
    const act = () => {
      acted.current = true;
    };
    window.addEventListener("keydown", act, { capture: true, once: true });
    window.addEventListener("pointerdown", act, { capture: true, once: true });
    return () => {
      window.removeEventListener("keydown", act, { capture: true });
      window.removeEventListener("pointerdown", act, { capture: true });
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again on every navigation, by design
  useEffect(() => {
    const root = document.getElementById(MAIN_CONTENT_ID);
    if (!root) return;
    let focusPending = !first.current && acted.current;
    first.current = false;
    const apply = () => {
      // The page's own heading: a page waiting to load keeps the last one in the DOM, hidden.
      const heading = [...root.querySelectorAll("h1")].find((h) => h.getClientRects().length > 0);
      document.title = titleFor(heading?.textContent);
      if (!heading || !focusPending) return;
      // An open dialog keeps its focus; the heading gets it otherwise.
      if (document.querySelector("dialog[open]")) return;
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus();
      focusPending = document.activeElement !== heading;
    };
    apply();
    const watch = new MutationObserver(apply);
    watch.observe(root, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, [path]);
  return null;
}
