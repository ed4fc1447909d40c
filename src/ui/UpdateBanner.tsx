import { useEffect, useState } from "react";
import { useI18n } from "../i18n/intl";
import { whenIdle } from "./idle";

const RELOAD_ASKED = "update_reload_asked";
/** The service worker registers this long after the app mounts, when the browser is idle. */
const REGISTER_AFTER_MS = 3000;

/** Registers the service worker at /sw.js and offers a reload when a new version waits. */
export function UpdateBanner() {
  const { t } = useI18n();
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
    // Reload only when the owner asked for the new version, not when the first one takes control.
    const onController = () => {
      if (sessionStorage.getItem(RELOAD_ASKED) === "1") {
        sessionStorage.removeItem(RELOAD_ASKED);
        location.reload();
      }
    };
    // Its install fetches every file of the app shell: it waits until the first screens are up and the
    // browser is idle, so a first visit's welcome screen and new wallet never compete with it.
    let cancelled = false;
    const register = () =>
      navigator.serviceWorker
        .register("/sw.js", { scope: "/" })
        .then((reg) => {
          if (reg.waiting && navigator.serviceWorker.controller) setWaiting(reg.waiting);
          reg.addEventListener("updatefound", () => {
            const next = reg.installing;
            next?.addEventListener("statechange", () => {
              if (next.state === "installed" && navigator.serviceWorker.controller) setWaiting(next);
            });
          });
        })
        .catch((e) => console.warn("Service worker not registered", e));
    const timer = setTimeout(() => whenIdle(() => cancelled || void register()), REGISTER_AFTER_MS);
    navigator.serviceWorker.addEventListener("controllerchange", onController);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      navigator.serviceWorker.removeEventListener("controllerchange", onController);
    };
  }, []);

  if (!waiting) return null;
  return (
    <div className="update-banner" role="status">
      {t("update.available")}
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          sessionStorage.setItem(RELOAD_ASKED, "1");
          waiting.postMessage({ type: "SKIP_WAITING" });
        }}
      >
        {t("update.reload")}
      </button>
    </div>
  );
}
