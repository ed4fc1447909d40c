import { useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Screen } from "../../ui/Screen";
import { CopyButton } from "../../ui/CopyButton";
import { useWalletConfig } from "../../ui/config";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { useView, useWallet } from "../../ui/wallet";

/** The name's rules (spec 2 §5), shown as the owner types; the worker checks them again. */
const NAME_RULE = /^[a-z0-9._-]+$/;

type Loaded =
  | { kind: "loading" }
  | { kind: "member"; address: string | null; name: string | null; mint: string | null }
  | { kind: "not-member" }
  | { kind: "error"; text: string };

/**
 * Lightning address (spec 2): members reserve a name, then see and copy name@host; non-members get the join
 * prompt (and the note that iOS may not receive while the app is closed); 'Hermes not configured' when the
 * address service is unset. The owner picks the mint that receives while the app is closed (one of the
 * mints joined, shown as holding those payments until the wallet redeems them), or none.
 */
export function LightningAddress() {
  const { t } = useI18n();
  const client = useWallet();
  const config = useWalletConfig();
  const errorText = useErrorText();
  const hermes = config.hermes ?? "";
  const plusHost = config.subscriptions ?? "";
  const [state, setState] = useState<Loaded>({ kind: "loading" });
  const [name, setName] = useState("");
  const { busy, error, run } = useAction();
  const federations = useView("federations");
  const mints = (federations ?? []).filter((f) => f.kind === "cashu");
  const [mint, setMint] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // The mint chosen; else, for a name held, the one the service has (or none); for a new name, the first joined.
  const chosen =
    mint ?? (state.kind === "member" && state.name ? (state.mint ?? "") : (mints[0]?.federation_id ?? ""));

  const load = useCallback(async () => {
    if (!hermes) return;
    try {
      const plus = plusHost ? await client.dispatch({ _tag: "GetPlus", host: plusHost }) : null;
      if (!plus?.active) return setState({ kind: "not-member" });
      const mine = await client.dispatch({ _tag: "GetLightningAddress", host: hermes });
      setState({ kind: "member", address: mine.address, name: mine.name, mint: mine.mint });
    } catch (e) {
      setState({ kind: "error", text: errorText(e) });
    }
  }, [client, hermes, plusHost, errorText]);
  useEffect(() => {
    void load();
  }, [load]);

  const typed = name.trim();
  const problem =
    typed === "" ? null : NAME_RULE.test(typed) ? null : t("settings.lightningaddress.error_characters");

  const reserve = (name: string, keep: boolean) => {
    setSaved(false);
    return run(async () => {
      const { address } = await client.dispatch({
        _tag: "ReserveLnName",
        host: hermes,
        name,
        mint: chosen || null,
      });
      setState({ kind: "member", address, name, mint: chosen || null });
      setSaved(keep);
    });
  };

  /** Where payments go while the app is closed: a joined mint, or nowhere. */
  const offlineChoice = (
    <div className="column">
      <label htmlFor="ln-mint">{t("settings.lightningaddress.offline_mint")}</label>
      <select
        id="ln-mint"
        value={chosen}
        onChange={(e) => {
          setMint(e.target.value);
          setSaved(false);
        }}
      >
        {mints.map((m) => (
          <option key={m.federation_id} value={m.federation_id}>
            {m.federation_name}
          </option>
        ))}
        <option value="">{t("settings.lightningaddress.offline_none")}</option>
      </select>
      <small>
        {mints.length === 0
          ? t("settings.lightningaddress.offline_join")
          : chosen
            ? t("settings.lightningaddress.offline_custody")
            : t("settings.lightningaddress.offline_none_note")}
      </small>
    </div>
  );

  return (
    <Screen title={t("settings.lightningaddress.title")}>
      {!hermes ? (
        <ErrorBox text={t("settings.lightningaddress.error_not_configured")} />
      ) : state.kind === "loading" ? (
        <p role="status">{t("common.loading")}</p>
      ) : state.kind === "error" ? (
        <ErrorBox text={state.text} />
      ) : state.kind === "not-member" ? (
        <section className="column">
          <p>{t("settings.lightningaddress.join_prompt")}</p>
          <p>
            <small>{t("settings.lightningaddress.ios_note")}</small>
          </p>
          <Link href="/settings/plus" className="button button-primary">
            {t("settings.lightningaddress.join")}
          </Link>
        </section>
      ) : state.address && state.name ? (
        <section className="column" aria-labelledby="ln-address">
          <h2 id="ln-address">{t("settings.lightningaddress.yours")}</h2>
          <p data-testid="lightning-address">{state.address}</p>
          <CopyButton text={state.address} />
          {offlineChoice}
          <ErrorBox text={error} />
          {saved ? <p role="status">{t("settings.lightningaddress.offline_saved")}</p> : null}
          <button
            type="button"
            className="button"
            disabled={busy || chosen === (state.mint ?? "")}
            onClick={() => state.name && reserve(state.name, true)}
          >
            {t("settings.lightningaddress.offline_save")}
          </button>
        </section>
      ) : (
        <Form onSubmit={() => reserve(typed, false)}>
          <p>{t("settings.lightningaddress.caption")}</p>
          <TextField
            id="ln-name"
            label={t("settings.lightningaddress.name")}
            value={name}
            autoCapitalize="none"
            aria-invalid={problem !== null}
            onValue={setName}
          />
          {problem ? <small className="error">{problem}</small> : null}
          {offlineChoice}
          <ErrorBox text={error} />
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || typed === "" || problem !== null}
          >
            {t("settings.lightningaddress.reserve")}
          </button>
        </Form>
      )}
    </Screen>
  );
}
