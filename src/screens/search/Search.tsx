import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox } from "../../ui/errors";
import { isSendableQuery, SEARCH_DEBOUNCE_MS } from "../../ui/incoming";
import { readClipboard, useIncoming } from "../../ui/useIncoming";

/** Search and send (spec 1 §2): a query or a paste; a sendable one (6+ characters, trimmed) can be paid. */
export function Search() {
  const { t } = useI18n();
  const go = useIncoming();
  const [query, setQuery] = useState("");
  const [settled, setSettled] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const sendable = isSendableQuery(settled);
  return (
    <main className="screen">
      <BackControl />
      <h1>{t("search.title")}</h1>
      <form
        className="column"
        onSubmit={(e) => {
          e.preventDefault();
          if (isSendableQuery(query)) setError(go(query.trim()));
        }}
      >
        <label htmlFor="search-query">{t("search.query")}</label>
        <input
          id="search-query"
          type="search"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setError(null);
          }}
        />
        <div className="row">
          <button
            type="button"
            className="button"
            onClick={async () => {
              const text = await readClipboard();
              if (text === null) setError(t("send.error_clipboard"));
              else {
                setQuery(text);
                setError(go(text));
              }
            }}
          >
            {t("search.paste")}
          </button>
          <button type="submit" className="button button-primary" disabled={!sendable}>
            {t("search.continue")}
          </button>
        </div>
        <ErrorBox text={error} />
        {!sendable ? <p className="hint">{t("search.hint")}</p> : null}
      </form>
    </main>
  );
}
