import { useState } from "react";
import { useI18n } from "../../../i18n/intl";
import type { NwcProfileView } from "../../../projections/nwc";
import { CopyButton } from "../../../ui/CopyButton";
import { ErrorBox } from "../../../ui/errors";
import { Qr } from "../../../ui/Qr";
import { useFormat } from "../../../ui/useFormat";
import { useAnswer, useView } from "../../../ui/wallet";

/** Profiles from this index on were made by the owner and have a URI to give an app (spec 2 §3). */
const QR_FROM_INDEX = 1000;

/** The URI an app is given, with its QR and a copy button (the open-app dialog and the cards). */
export function ConnectionUri({ index }: { index: number }) {
  const { t } = useI18n();
  const answer = useAnswer({ _tag: "GetNwcUri", index }, index);
  if (answer.error) return <ErrorBox text={answer.error} />;
  if (!answer.value) return <p className="hint">{t("common.loading")}</p>;
  const { uri } = answer.value;
  return (
    <div className="connection-uri">
      <Qr value={uri} size={200} label={t("settings.connections.qr")} />
      <label htmlFor={`connection-uri-${index}`}>{t("settings.connections.uri")}</label>
      <input id={`connection-uri-${index}`} type="text" readOnly value={uri} spellCheck={false} />
      <CopyButton text={uri} />
    </div>
  );
}

/** A connection: its budget or approval rule in the summary; opened, its details, URI, edit and delete. */
export function ConnectionCard({
  profile,
  onEdit,
  onDelete,
}: {
  profile: NwcProfileView;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  const [open, setOpen] = useState(false);
  // The connection string is a secret: shown only when asked for, never merely by opening the card.
  const [secret, setSecret] = useState(false);
  const left = profile.budget_remaining;
  // Its payments waiting for the owner (approval, or over its budget), as home's requests tab has them.
  const waiting = (useView("nwc")?.pending ?? []).filter(
    (p) => p.index === profile.index && p.expiry * 1000 > Date.now(),
  );
  const budget = t("settings.connections.budget_per", {
    amount: fmt.sats(profile.budget_amount),
    period: String(profile.budget_period),
  });
  return (
    <li className="connection-card">
      <details open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>
          <span className="connection-name">
            {profile.name}
            {profile.enabled ? null : <small> · {t("settings.connections.disabled")}</small>}
          </span>
          <span className="hint">
            {profile.require_approval ? t("settings.connections.require_approval") : budget}
          </span>
          {waiting.length > 0 ? (
            <span className="badge" data-testid="connection-waiting">
              {t("settings.connections.waiting", {
                count: waiting.length,
                amount: fmt.sats(waiting.reduce((sum, p) => sum + p.amount_sats, 0n)),
              })}
            </span>
          ) : null}
        </summary>
        <dl className="details">
          {profile.require_approval ? (
            <>
              <dt>{t("settings.connections.require_approval")}</dt>
              <dd>{t("settings.connections.yes")}</dd>
            </>
          ) : (
            <>
              <dt>{t("settings.connections.budget")}</dt>
              <dd>{budget}</dd>
              <dt>{t("settings.connections.remaining")}</dt>
              <dd>{t("channels.sats", { amount: fmt.sats(left) })}</dd>
              <dt>{t("settings.connections.used")}</dt>
              <dd>{t("channels.sats", { amount: fmt.sats(profile.budget_amount - left) })}</dd>
            </>
          )}
          <dt>{t("settings.connections.enabled")}</dt>
          <dd>{profile.enabled ? t("settings.connections.yes") : t("settings.connections.no")}</dd>
        </dl>
        {open && profile.enabled && profile.index >= QR_FROM_INDEX && !profile.from_app ? (
          <>
            <button
              type="button"
              className="button"
              aria-expanded={secret}
              onClick={() => setSecret((s) => !s)}
            >
              {secret ? t("settings.connections.hide_uri") : t("settings.connections.show_uri")}
            </button>
            {secret ? (
              <>
                <p className="hint">{t("settings.connections.open_app_hint")}</p>
                <ConnectionUri index={profile.index} />
              </>
            ) : null}
          </>
        ) : null}
        <div className="row form-actions">
          <button type="button" className="button" onClick={onEdit}>
            {t("settings.connections.edit")}
          </button>
          <button type="button" className="button button-danger" onClick={onDelete}>
            {t("settings.connections.delete")}
          </button>
        </div>
      </details>
    </li>
  );
}
