import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Avatar, PicturePicker } from "../../ui/profile";
import { useView, useWallet } from "../../ui/wallet";

/** Edit profile (spec 2 /editprofile): nym, lightning address and image; nip05 stays as it is. */
export function EditProfile() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const current = useView("profile")?.profile ?? null;
  const [nym, setNym] = useState(current?.display_name ?? current?.name ?? "");
  const [address, setAddress] = useState(current?.lud16 ?? "");
  const [picture, setPicture] = useState<string | null>(current?.picture ?? null);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "EditNostrProfile", nym, imageUrl: picture, lightningAddress: address });
      navigate("/profile", { replace: true });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("profile.edit")}</h1>
      <form
        className="column"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Avatar picture={picture} name={nym} size={80} />
        <label htmlFor="editprofile-nym">{t("profile.name")}</label>
        <input id="editprofile-nym" value={nym} maxLength={100} onChange={(e) => setNym(e.target.value)} />
        <label htmlFor="editprofile-lud16">{t("profile.lightning_address")}</label>
        <input
          id="editprofile-lud16"
          value={address}
          inputMode="email"
          autoComplete="off"
          placeholder="name@example.com"
          onChange={(e) => setAddress(e.target.value)}
        />
        <PicturePicker id="editprofile-picture" onUploaded={setPicture} onBusy={setUploading} />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy || uploading}>
          {busy ? t("common.saving") : t("profile.save")}
        </button>
      </form>
    </main>
  );
}
