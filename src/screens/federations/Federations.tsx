import { useState } from "react";
import { useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { formatSats } from "../../ui/format";
import { useView, useWallet } from "../../ui/wallet";
import { FederationCard } from "./FederationCard";
import { ResyncFederation } from "./ResyncFederation";

/**
 * /settings/federations (spec 2): add a custodian by invite code or mint URL, the list with each one's
 * name, welcome message, end date and balance (each card recommends its custodian on nostr), recovering
 * ecash from the seed, and (in safe mode) a resync of each one.
 */
export function Federations() {
  const { t, intl } = useI18n();
  const client = useWallet();
  const errorText = useErrorText();
  const federations = useView("federations");
  const query = new URLSearchParams(useSearch());
  const [code, setCode] = useState(query.get("fedimint_invite") ?? "");
  const [token, setToken] = useState(query.get("cashu_token") ?? "");
  const [redeemed, setRedeemed] = useState<string | null>(null);
  // An invoice from the send screen: offered for payment at the custodian holding the most ecash.
  const pay = query.get("pay");
  const payFrom = [...(federations ?? [])].sort((a, b) => (b.balance > a.balance ? 1 : -1))[0]?.federation_id;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [restored, setRestored] = useState<string | null>(null);

  const add = async () => {
    setError(null);
    setBusy(true);
    try {
      await client.dispatch({ _tag: "JoinFederation", code });
      setCode("");
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const redeem = async () => {
    setError(null);
    setRedeemed(null);
    setBusy(true);
    try {
      const r = await client.dispatch({ _tag: "ReceiveEcashToken", token });
      setRedeemed(t("federations.received", { amount: formatSats(intl, r.amountSats) }));
      setToken("");
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const restore = async () => {
    setError(null);
    setRestored(null);
    setBusy(true);
    try {
      const r = await client.dispatch({ _tag: "RestoreEcash" });
      setRestored(
        [
          t("federations.restored", { amount: formatSats(intl, r.recoveredSats) }),
          r.notRestored.length > 0 ? t("federations.not_restored", { list: r.notRestored.join(", ") }) : "",
        ].join(" "),
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("federations.title")}</h1>
      <p>{t("federations.caption")}</p>
      <form
        className="column"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor="federation-code">{t("federations.code")}</label>
        <input
          id="federation-code"
          value={code}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setCode(e.target.value)}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("federations.add")}
        </button>
      </form>
      {federations && federations.length > 0 ? (
        <>
          <div className="row">
            <button type="button" className="button" disabled={busy} onClick={() => void restore()}>
              {t("federations.restore")}
            </button>
          </div>
          {restored ? <p role="status">{restored}</p> : null}
          <form
            className="column"
            onSubmit={(e) => {
              e.preventDefault();
              void redeem();
            }}
          >
            <label htmlFor="ecash-token">{t("federations.token")}</label>
            <textarea
              id="ecash-token"
              rows={3}
              value={token}
              spellCheck={false}
              onChange={(e) => setToken(e.target.value.trim())}
            />
            <button type="submit" className="button" disabled={busy || token === ""}>
              {t("federations.redeem")}
            </button>
            {redeemed ? <p role="status">{redeemed}</p> : null}
          </form>
          {federations.map((f) => (
            <div key={f.federation_id} className="column">
              <FederationCard federation={f} pay={pay && f.federation_id === payFrom ? pay : undefined} />
              <ResyncFederation federation={f} />
            </div>
          ))}
        </>
      ) : (
        <p>{t("federations.none")}</p>
      )}
    </main>
  );
}
