import { useEffect } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { Avatar } from "../../ui/profile";
import { Qr } from "../../ui/Qr";
import { ShareField } from "../../ui/ShareField";
import { useView, useWallet } from "../../ui/wallet";
import { PlusAddress, usePlusAddress } from "./PlusAddress";

/** The owner's profile (spec 2 /profile): avatar, name, lightning address, edit; a deleted one offers only import. */
export function Profile() {
  const { t } = useI18n();
  const client = useWallet();
  const view = useView("profile");
  const locked = useView("live")?.needs_password ?? false;

  useEffect(() => {
    if (locked) return;
    // Records the key in use, then asks the relays for the newest profile (another device may have edited it).
    void client
      .dispatch({ _tag: "GetNpub" })
      .then(() => client.dispatch({ _tag: "GetNostrProfile" }))
      .catch(() => undefined);
  }, [client, locked]);

  const profile = view?.profile ?? null;
  const name = profile?.display_name ?? profile?.name ?? null;
  // A Plus member's lightning address is what friends pay: it leads, with its QR.
  const plusAddress = usePlusAddress();
  // Besides the QR: the npub and the profile's lightning address (unless it is the member's), each with a
  // copy button.
  const shared = [
    { label: t("nostr_keys.npub"), text: view?.npub, className: "mono", testId: "profile-npub" },
    {
      label: t("profile.lightning_address"),
      text: profile?.lud16 === plusAddress ? null : profile?.lud16,
      testId: "profile-lud16",
    },
  ].flatMap((f) => (f.text ? [{ ...f, text: f.text }] : []));

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("profile.title")}</h1>
      {profile?.deleted ? (
        <section className="card column">
          <p>{t("profile.deleted")}</p>
          <Link href="/importprofile" className="button button-primary">
            {t("profile.import")}
          </Link>
        </section>
      ) : (
        <section className="card column profile-card" aria-label={t("profile.title")}>
          <Avatar
            picture={profile?.picture}
            name={name}
            size={96}
            label={t("profile.avatar_of", { name: name ?? "" })}
          />
          <p className="profile-name" data-testid="profile-name">
            {name ?? t("profile.no_profile")}
          </p>
          {/* What to share: the npub (its QR) and the lightning address, each with a copy button. */}
          {plusAddress ? (
            <PlusAddress address={plusAddress} />
          ) : view?.npub ? (
            <Qr value={view.npub} size={180} label={t("nostr_keys.npub_qr")} />
          ) : null}
          {shared.map((f) => (
            <ShareField key={f.testId} {...f} />
          ))}
          {view && view.pending > 0 ? (
            <p className="hint" aria-live="polite">
              {t("profile.pending")}
            </p>
          ) : null}
          {view && view.failed.count > 0 ? (
            <p className="hint" role="status" data-testid="profile-failed">
              {t("profile.failed", { reason: view.failed.reason ?? "" })}
            </p>
          ) : null}
          <Link href="/editprofile" className="button button-primary">
            {t("profile.edit")}
          </Link>
        </section>
      )}
    </main>
  );
}
