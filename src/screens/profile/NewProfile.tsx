import { useState } from "react";
import { Link, Redirect, useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { Avatar, PicturePicker, storeProfileStage } from "../../ui/profile";
import { walletMade } from "../../ui/new-wallet";
import { useView, useWallet } from "../../ui/wallet";

/**
 * First-run profile (spec 2 /newprofile): a name and a picture, skip, or import. Skipping stores the stage
 * and goes home at once: it never waits on a relay.
 */
export function NewProfile() {
  const { t } = useI18n();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [picture, setPicture] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const { busy, error, run } = useAction();

  const create = () =>
    run(
      async () => {
        await walletMade();
        // Queued in the wallet's log: published as soon as a relay is reachable.
        await client.dispatch({ _tag: "SetupNewProfile", name, imageUrl: picture });
        storeProfileStage("saved");
        navigate("/", { replace: true });
      },
      { stayBusy: true },
    );

  // Home shows at once, drawn from the views of a wallet with nothing in it yet (true of a new one), and
  // takes no action until the wallet is made; if making it fails, the welcome screen is back with the error.
  const skip = () => {
    walletMade().then(
      () => storeProfileStage("skipped"),
      () => undefined,
    );
    navigate("/", { replace: true });
  };

  // A wallet that has a profile edits it: the first-run form would start it over from nothing.
  const existing = useView("profile")?.profile;
  if (existing && !existing.deleted && !busy) return <Redirect to="/editprofile" replace />;

  return (
    <main className="screen">
      <h1>{t("profile.create_title")}</h1>
      <p>{t("profile.create_caption")}</p>
      <Form onSubmit={create}>
        <Avatar picture={picture} name={name} size={80} />
        <TextField
          id="newprofile-name"
          label={t("profile.name")}
          value={name}
          maxLength={100}
          autoComplete="nickname"
          spellCheck={undefined}
          onValue={setName}
        />
        <PicturePicker id="newprofile-picture" onUploaded={setPicture} onBusy={setUploading} />
        <ErrorBox text={error} />
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || uploading || name.trim() === ""}
        >
          {busy ? t("common.saving") : t("profile.create")}
        </button>
      </Form>
      <div className="column">
        <button type="button" className="button" onClick={() => void skip()}>
          {t("profile.skip")}
        </button>
        <Link href="/importprofile" className="link">
          {t("profile.import_existing")}
        </Link>
      </div>
    </main>
  );
}
