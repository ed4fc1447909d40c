import { useEffect, useState } from "react";
import { useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { formatSats } from "../../ui/format";
import { useView, useWallet } from "../../ui/wallet";
import type { ResultOf } from "../../commands/command";
import { FederationCard } from "./FederationCard";
import { ResyncFederation } from "./ResyncFederation";

/** How often a running restore's progress is asked for. */
const RESTORE_POLL_MS = 500;

/** A Fedimint invite code (bech32m `fed1…`), as opposed to a Cashu mint's URL. */
const isFedimintInvite = (code: string): boolean => code.trim().toLowerCase().startsWith("fed1");

/**
 * /settings/federations (spec 2): add a custodian by invite code or mint URL, the list with each one's
 * name, welcome message, end date and balance (each card recommends its custodian on nostr), recovering
 * ecash from the seed, and (in safe mode) a resync of each one.
 */
export function Federations() {
  const { t, intl } = useI18n();
  const client = useWallet();
  const federations = useView("federations");
  const query = new URLSearchParams(useSearch());
  const [code, setCode] = useState(query.get("fedimint_invite") ?? "");
  const [token, setToken] = useState(query.get("cashu_token") ?? "");
  const [redeemed, setRedeemed] = useState<string | null>(null);
  // An invoice from the send screen: offered for payment at the custodian holding the most ecash.
  const pay = query.get("pay");
  const payFrom = [...(federations ?? [])].sort((a, b) => (b.balance > a.balance ? 1 : -1))[0]?.federation_id;
  const { busy, error, run } = useAction();
  const [restored, setRestored] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [progress, setProgress] = useState<ResultOf<"EcashRestoreProgress">>(null);

  // While a restore runs: which keyset it is at and the proofs found so far.
  useEffect(() => {
    if (!restoring) return;
    const timer = setInterval(() => {
      client
        .dispatch({ _tag: "EcashRestoreProgress" })
        .then((p) => setProgress(p))
        .catch(() => undefined);
    }, RESTORE_POLL_MS);
    return () => clearInterval(timer);
  }, [client, restoring]);

  const add = () =>
    run(async () => {
      await client.dispatch({ _tag: "JoinFederation", code });
      setCode("");
    });
  const redeem = () => {
    setRedeemed(null);
    return run(async () => {
      const r = await client.dispatch({ _tag: "ReceiveEcashToken", token });
      setRedeemed(t("federations.received", { amount: formatSats(intl, r.amountSats) }));
      setToken("");
    });
  };
  const restore = () => {
    setRestored(null);
    setProgress(null);
    setRestoring(true);
    return run(async () => {
      const r = await client.dispatch({ _tag: "RestoreEcash" }).finally(() => setRestoring(false));
      setRestored(
        [
          t("federations.restored", { amount: formatSats(intl, r.recoveredSats) }),
          r.notRestored.length > 0 ? t("federations.not_restored", { list: r.notRestored.join(", ") }) : "",
        ].join(" "),
      );
    });
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("federations.title")}</h1>
      <p>{t("federations.caption")}</p>
      {/* What the owner holds first; then joining another, a token to receive, and recovery. */}
      {federations && federations.length > 0 ? (
        federations.map((f) => (
          <div key={f.federation_id} className="column">
            <FederationCard federation={f} pay={pay && f.federation_id === payFrom ? pay : undefined} />
            <ResyncFederation federation={f} />
          </div>
        ))
      ) : (
        <p>{t("federations.none")}</p>
      )}
      <Form onSubmit={add} className="card column">
        <TextField id="federation-code" label={t("federations.code")} value={code} onValue={setCode} />
        {/* A federation's client keeps a secret of its own: its ecash does not come back with the 12 words. */}
        {isFedimintInvite(code) ? (
          <p className="hint" role="note">
            {t("federations.not_recoverable")}
          </p>
        ) : null}
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary self-start" disabled={busy}>
          {t("federations.add")}
        </button>
      </Form>
      {federations && federations.length > 0 ? (
        <>
          <Form onSubmit={redeem} className="card column">
            <label htmlFor="ecash-token">{t("federations.token")}</label>
            <textarea
              id="ecash-token"
              rows={3}
              value={token}
              spellCheck={false}
              onChange={(e) => setToken(e.target.value.trim())}
            />
            <button type="submit" className="button self-start" disabled={busy || token === ""}>
              {t("federations.redeem")}
            </button>
            {redeemed ? <p role="status">{redeemed}</p> : null}
          </Form>
          <div className="row">
            <button type="button" className="button" disabled={busy} onClick={() => void restore()}>
              {t("federations.restore")}
            </button>
          </div>
          {restoring ? (
            <div className="column">
              <progress
                max={Math.max(progress?.total ?? 0, 1)}
                value={progress?.complete ?? 0}
                aria-label={t("federations.restoring_label")}
              />
              <p role="status">
                {progress && progress.keysets > 0
                  ? t("federations.restoring", {
                      keyset: progress.keyset,
                      keysets: progress.keysets,
                      proofs: progress.proofs,
                    })
                  : t("federations.restoring_label")}
              </p>
            </div>
          ) : restored ? (
            <p role="status">{restored}</p>
          ) : null}
        </>
      ) : null}
    </main>
  );
}
