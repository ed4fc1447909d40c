import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { DangerZone } from "../../ui/DangerZone";
import { CopyButton } from "../../ui/CopyButton";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useAction } from "../../ui/form";
import { Qr } from "../../ui/Qr";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { NostrServersForm } from "./NostrServers";

/**
 * Nostr keys (spec 2 /settings/nostrkeys): QR and copy of the npub, the nsec hidden until revealed, import
 * profile, delete account (with confirmation) and unlink an imported key.
 */
export function NostrKeys() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const toast = useToast();
  const client = useWallet();
  const view = useView("profile");
  const live = useView("live");
  const locked = live?.needs_password ?? false;
  const relays = live?.nostr_relays ?? [];
  const [nsec, setNsec] = useState<string | null>(null);
  const { busy, error, setError, run: act } = useAction();
  const [confirmDelete, setConfirmDelete] = useState(false);

  useEffect(() => {
    if (locked) return;
    // Records the key in use in the log; the view then shows its npub.
    client.dispatch({ _tag: "GetNpub" }).catch((e) => setError(errorText(e)));
  }, [client, errorText, locked, setError]);

  const reveal = async () => {
    if (nsec) {
      setNsec(null);
      return;
    }
    try {
      setNsec((await client.dispatch({ _tag: "ExportNsec" })).nsec);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const run = (f: () => Promise<unknown>, done?: string) =>
    act(async () => {
      await f();
      setNsec(null);
      if (done) toast({ title: done });
    });

  const shown = view?.npub ?? null;

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("nostr_keys.title")}</h1>
      <p>{t("nostr_keys.caption")}</p>
      <section className="card column" aria-labelledby="nostr-npub">
        <h2 id="nostr-npub">{t("nostr_keys.npub")}</h2>
        {shown ? (
          <>
            <Qr value={shown} size={200} label={t("nostr_keys.npub_qr")} />
            <p className="mono break" data-testid="npub">
              {shown}
            </p>
            <CopyButton text={shown} />
          </>
        ) : (
          <p aria-busy="true">{t("common.loading")}</p>
        )}
      </section>
      <section className="card column" aria-labelledby="nostr-nsec">
        <h2 id="nostr-nsec">{t("nostr_keys.nsec")}</h2>
        <p>{t("nostr_keys.nsec_warning")}</p>
        {nsec ? (
          <>
            <p className="mono break" data-testid="nsec">
              {nsec}
            </p>
            <CopyButton text={nsec} />
          </>
        ) : null}
        <button type="button" className="button" onClick={() => void reveal()} aria-expanded={nsec !== null}>
          {nsec ? t("nostr_keys.hide") : t("nostr_keys.reveal")}
        </button>
      </section>
      <section className="card column">
        <Link href="/settings/importprofile" className="button">
          {t("profile.import")}
        </Link>
        {view?.imported ? (
          <>
            <p>{t("nostr_keys.imported")}</p>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void run(() => client.dispatch({ _tag: "UnlinkNostrKey" }))}
            >
              {t("nostr_keys.unlink")}
            </button>
          </>
        ) : null}
      </section>
      <ErrorBox text={error} />
      {relays.length > 0 ? (
        <section className="card column" aria-labelledby="nostr-relay-status">
          <h2 id="nostr-relay-status">{t("nostr_keys.relay_status")}</h2>
          <ul className="item-list">
            {relays.map((r) => (
              <li key={r.url}>
                <span className="mono break">{r.url}</span>{" "}
                <span>{r.connected ? t("nostr_keys.connected") : t("nostr_keys.not_connected")}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <NostrServersForm />
      {/* Deleting the profile is apart from the everyday buttons, last, as the emergency kit keeps its own. */}
      <DangerZone id="nostr-danger" caption={t("nostr_keys.delete_caption")}>
        <button
          type="button"
          className="button button-danger"
          disabled={busy || view?.profile?.deleted === true}
          onClick={() => setConfirmDelete(true)}
        >
          {t("nostr_keys.delete_account")}
        </button>
      </DangerZone>
      <ConfirmDialog
        open={confirmDelete}
        danger
        title={t("nostr_keys.delete_account")}
        message={t("nostr_keys.delete_confirm")}
        confirmLabel={t("nostr_keys.delete_account")}
        busy={busy}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          void run(() => client.dispatch({ _tag: "DeleteProfile" }), t("nostr_keys.deleted"));
        }}
      />
    </main>
  );
}
