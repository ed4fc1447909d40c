import { useEffect } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { Avatar } from "../../ui/profile";
import { useView, useWallet } from "../../ui/wallet";

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
          {profile?.lud16 ? <p data-testid="profile-lud16">{profile.lud16}</p> : null}
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
