import { useEffect, useMemo, useState } from "react";
import type { ProfileSearchResult } from "../../commands/command";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { useWalletConfig } from "../../ui/config";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Form, PasteButton, TextField, useAction } from "../../ui/form";
import { truncateMiddle } from "../../ui/format";
import { isSendableQuery, pathFor, SEARCH_DEBOUNCE_MS } from "../../ui/incoming";
import { useIncoming } from "../../ui/useIncoming";
import { useView, useWallet } from "../../ui/wallet";
import { Avatar } from "../contacts/Avatar";
import { searchesProfiles } from "./search-rules";
import { ContactDetailDialog, CreateContactDialog, NewContactButton } from "../contacts/ContactDialogs";

type Global =
  | { readonly state: "idle" }
  | { readonly state: "searching"; readonly query: string }
  | { readonly state: "done"; readonly query: string; readonly results: readonly ProfileSearchResult[] }
  | { readonly state: "failed"; readonly query: string; readonly error: string };

/**
 * Search and send (spec 1 §2, §5): a query or a paste; a sendable one (6+ characters, trimmed) can be
 * paid. As the owner types, the contacts that match; once typing pauses (250 ms), the social profiles
 * that match, through the worker (a payment string is never sent to the search service). Choosing a
 * profile asks first, then keeps it as a contact.
 */
export function Search() {
  const { t } = useI18n();
  const go = useIncoming();
  const client = useWallet();
  const errorText = useErrorText();
  const { network } = useWalletConfig();
  // Safe mode hides contacts (spec 1 §6).
  const safeMode = useView("wallet")?.safe_mode ?? false;
  const contacts = useView("contacts");
  const [query, setQuery] = useState("");
  const [settled, setSettled] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [global, setGlobal] = useState<Global>({ state: "idle" });
  const [adding, setAdding] = useState<ProfileSearchResult | null>(null);
  const add = useAction();
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setSettled(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const sendable = isSendableQuery(settled);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    if (!searchesProfiles(settled, "path" in pathFor(settled, network))) {
      setGlobal({ state: "idle" });
      return;
    }
    let current = true;
    setGlobal({ state: "searching", query: settled });
    client
      .dispatch({ _tag: "SearchProfiles", query: settled })
      .then((results) => current && setGlobal({ state: "done", query: settled, results }))
      .catch((e) => current && setGlobal({ state: "failed", query: settled, error: errorText(e) }));
    return () => {
      current = false;
    };
  }, [settled, network, client]);

  const needle = query.trim().toLowerCase();
  const matching = useMemo(
    () =>
      (contacts ?? []).filter(
        (c) =>
          needle === "" ||
          c.name.toLowerCase().includes(needle) ||
          (c.ln_address ?? "").includes(needle) ||
          (c.npub ?? "").toLowerCase().includes(needle),
      ),
    [contacts, needle],
  );
  const contactOf = (p: ProfileSearchResult) => contacts?.find((c) => c.npub === p.npub) ?? null;
  const nameOf = (p: ProfileSearchResult) => p.name || truncateMiddle(p.npub);

  return (
    <main className="screen">
      <BackControl />
      {/* Named as the navigation names it. */}
      <h1>{t("nav.search")}</h1>
      <Form onSubmit={() => isSendableQuery(query) && setError(go(query.trim()))}>
        <TextField
          id="search-query"
          label={t("search.query")}
          type="search"
          value={query}
          onValue={(value) => {
            setQuery(value);
            setError(null);
          }}
        />
        <div className="row">
          <PasteButton
            onText={(text) => {
              setQuery(text);
              setError(go(text));
            }}
            onError={setError}
          >
            {t("search.paste")}
          </PasteButton>
          <button type="submit" className="button button-primary" disabled={!sendable}>
            {t("search.continue")}
          </button>
        </div>
        <ErrorBox text={error} />
        {/* How to start, until something is typed: results take its place after. */}
        {query.trim() === "" ? <p className="hint">{t("search.hint")}</p> : null}
      </Form>

      {safeMode ? null : (
        <section className="column" aria-labelledby="search-contacts">
          <h2 id="search-contacts">{t("search.contacts")}</h2>
          <ul className="contact-list">
            <li>
              <NewContactButton variant="row" onClick={() => setCreating(true)} />
            </li>
            {matching.map((c) => (
              <li key={c.id}>
                <button type="button" className="contact-row" onClick={() => setOpen(c.id)}>
                  <Avatar name={c.name} image={c.image_url} />
                  <span className="contact-text">
                    <span>{c.name}</span>
                    {c.ln_address ? <span className="hint">{c.ln_address}</span> : null}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {needle !== "" && matching.length === 0 ? <p className="hint">{t("search.no_contacts")}</p> : null}
        </section>
      )}

      {global.state !== "idle" ? (
        <section className="column" aria-labelledby="search-global" aria-busy={global.state === "searching"}>
          <h2 id="search-global">{t("search.global")}</h2>
          {global.state === "searching" ? <p className="hint">{t("search.searching")}</p> : null}
          {global.state === "failed" ? <ErrorBox text={global.error} /> : null}
          {global.state === "done" && global.results.length === 0 ? (
            <p className="hint">{t("search.no_results")}</p>
          ) : null}
          {global.state === "done" && global.results.length > 0 ? (
            <ul className="contact-list" aria-label={t("search.global")}>
              {global.results.map((p) => {
                const known = contactOf(p);
                return (
                  <li key={p.hexpub}>
                    <button
                      type="button"
                      className="contact-row"
                      onClick={() => {
                        add.setError(null);
                        if (known) setOpen(known.id);
                        else setAdding(p);
                      }}
                    >
                      <Avatar name={nameOf(p)} image={p.image_url} />
                      <span className="contact-text">
                        <span>{nameOf(p)}</span>
                        <span className="hint">
                          {known ? t("search.in_contacts") : (p.ln_address ?? truncateMiddle(p.npub))}
                        </span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </section>
      ) : null}

      <ConfirmDialog
        open={adding !== null}
        title={t("search.add_title")}
        message={add.error ?? t("search.add_confirm", { name: adding ? nameOf(adding) : "" })}
        confirmLabel={t("search.add")}
        onCancel={() => setAdding(null)}
        onConfirm={() => {
          const p = adding;
          if (!p) return;
          void add.run(async () => {
            const r = await client.dispatch({
              _tag: "CreateContact",
              fromProfile: true,
              name: nameOf(p),
              npub: p.npub,
              ln_address: p.ln_address ?? "",
              lnurl: p.lnurl ?? undefined,
              image_url: p.image_url ?? undefined,
            });
            setAdding(null);
            setOpen(r.id);
          });
        }}
      />
      <CreateContactDialog open={creating} onClose={() => setCreating(false)} onCreated={setOpen} />
      <ContactDetailDialog contactId={open} onClose={() => setOpen(null)} />
    </main>
  );
}
