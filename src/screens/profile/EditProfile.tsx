import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { Avatar, PicturePicker } from "../../ui/profile";
import { useView, useWallet } from "../../ui/wallet";

/** Edit profile (spec 2 /editprofile): nym, lightning address and image; nip05 stays as it is. */
export function EditProfile() {
  const { t } = useI18n();
  const client = useWallet();
  const [, navigate] = useLocation();
  const current = useView("profile")?.profile ?? null;
  const [nym, setNym] = useState(current?.display_name ?? current?.name ?? "");
  const [address, setAddress] = useState(current?.lud16 ?? "");
  const [picture, setPicture] = useState<string | null>(current?.picture ?? null);
  const [uploading, setUploading] = useState(false);
  const { busy, error, run } = useAction();

  const save = () =>
    run(
      async () => {
        await client.dispatch({
          _tag: "EditNostrProfile",
          nym,
          imageUrl: picture,
          lightningAddress: address,
        });
        navigate("/profile", { replace: true });
      },
      { stayBusy: true },
    );

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("profile.edit")}</h1>
      <Form onSubmit={save}>
        <Avatar picture={picture} name={nym} size={80} />
        <TextField
          id="editprofile-nym"
          label={t("profile.name")}
          value={nym}
          maxLength={100}
          autoComplete={undefined}
          spellCheck={undefined}
          onValue={setNym}
        />
        <TextField
          id="editprofile-lud16"
          label={t("profile.lightning_address")}
          value={address}
          inputMode="email"
          spellCheck={undefined}
          placeholder="name@example.com"
          onValue={setAddress}
        />
        <PicturePicker id="editprofile-picture" onUploaded={setPicture} onBusy={setUploading} />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy || uploading}>
          {busy ? t("common.saving") : t("profile.save")}
        </button>
      </Form>
    </main>
  );
}
