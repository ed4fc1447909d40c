import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Screen } from "../../ui/Screen";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { walletMade } from "../../ui/new-wallet";
import { storeProfileStage } from "../../ui/profile";
import { useWallet } from "../../ui/wallet";

/** Import profile (spec 2 /importprofile, /settings/importprofile): an nsec, sealed like the seed. */
export function ImportProfile() {
  const { t } = useI18n();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [nsec, setNsec] = useState("");
  const { busy, error, run } = useAction();

  const submit = () =>
    run(
      async () => {
        // Opened from the first-run step, the wallet the key is sealed with may be moments away.
        await walletMade();
        await client.dispatch({ _tag: "ImportNsec", nsec });
        setNsec("");
        storeProfileStage("saved");
        navigate("/profile", { replace: true });
      },
      { stayBusy: true },
    );

  return (
    <Screen title={t("profile.import_title")} caption={t("profile.import_caption")}>
      <Form onSubmit={submit}>
        <TextField
          id="import-nsec"
          label={t("profile.nsec")}
          type="password"
          value={nsec}
          onValue={setNsec}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy || nsec.trim() === ""}>
          {busy ? t("profile.importing") : t("profile.import_button")}
        </button>
      </Form>
    </Screen>
  );
}
