import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { walletMade } from "../../ui/new-wallet";
import { storeProfileStage } from "../../ui/profile";
import { useWallet } from "../../ui/wallet";

/** Import profile (spec 2 /importprofile, /settings/importprofile): an nsec, sealed like the seed. */
export function ImportProfile() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [nsec, setNsec] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      // Opened from the first-run step, the wallet the key is sealed with may be moments away.
      await walletMade();
      await client.dispatch({ _tag: "ImportNsec", nsec });
      setNsec("");
      storeProfileStage("saved");
      navigate("/profile", { replace: true });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("profile.import_title")}</h1>
      <p>{t("profile.import_caption")}</p>
      <form
        className="column"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="import-nsec">{t("profile.nsec")}</label>
        <input
          id="import-nsec"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={nsec}
          onChange={(e) => setNsec(e.target.value)}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy || nsec.trim() === ""}>
          {busy ? t("profile.importing") : t("profile.import_button")}
        </button>
      </form>
    </main>
  );
}
