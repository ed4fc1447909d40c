import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import type { NwcProfileView } from "../../projections/nwc";
import { BackControl } from "../../ui/BackControl";
import { CopyButton } from "../../ui/CopyButton";
import { ConfirmDialog, Dialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { Qr } from "../../ui/Qr";
import { useView, useWallet } from "../../ui/wallet";
import { useFormat } from "../../ui/useFormat";
import { Form, TextField, useAction } from "../../ui/form";

const PERIODS = [0, 1, 2, 3] as const;
/** Profiles from this index on were made by the owner and have a URI to give an app (spec 2 §3). */
const QR_FROM_INDEX = 1000;

interface ConnectionFields {
  name: string;
  budget: string;
  period: number;
  requireApproval: boolean;
  enabled: boolean;
}

const emptyForm: ConnectionFields = {
  name: "",
  budget: "10000",
  period: 0,
  requireApproval: false,
  enabled: true,
};

/** The connection form's own rules (spec 2 §5), checked before the worker checks them again. */
const formProblem = (f: ConnectionFields): "settings.connections.error_name" | "error_budget_zero" | null => {
  if (f.name.trim() === "") return "settings.connections.error_name";
  if (!f.requireApproval && (f.budget.trim() === "" || BigInt(f.budget) === 0n)) return "error_budget_zero";
  return null;
};

/** The add/edit form; in edit mode the name is locked, and a fixed budget cannot change. */
function ConnectionForm({
  initial,
  editing,
  budgetFixed,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: ConnectionFields;
  editing: boolean;
  budgetFixed: boolean;
  submitLabel: string;
  onSubmit: (f: ConnectionFields) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [form, setForm] = useState(initial);
  const [problem, setProblem] = useState<ReturnType<typeof formProblem>>(null);
  const { busy, error, run } = useAction();
  return (
    <Form
      noValidate
      onSubmit={() => {
        const p = formProblem(form);
        setProblem(p);
        return p ? undefined : run(() => onSubmit(form));
      }}
    >
      <TextField
        id="connection-name"
        label={t("settings.connections.name")}
        type="text"
        value={form.name}
        readOnly={editing}
        aria-readonly={editing}
        problem={problem === "settings.connections.error_name" ? t(problem) : null}
        onValue={(name) => setForm({ ...form, name })}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={!form.requireApproval}
          onChange={(e) => setForm({ ...form, requireApproval: !e.target.checked })}
        />
        {t("settings.connections.auto_approve")}
      </label>
      <TextField
        id="connection-budget"
        label={t("settings.connections.budget")}
        type="text"
        inputMode="numeric"
        value={form.budget}
        disabled={budgetFixed}
        problem={problem === "error_budget_zero" ? t(problem) : null}
        onValue={(v) => setForm({ ...form, budget: v.replace(/\D/g, "") })}
      />
      <label htmlFor="connection-period">{t("settings.connections.period")}</label>
      <select
        id="connection-period"
        value={form.period}
        disabled={budgetFixed}
        onChange={(e) => setForm({ ...form, period: Number(e.target.value) })}
      >
        {PERIODS.map((p) => (
          <option key={p} value={p}>
            {t(`settings.connections.period_${p}`)}
          </option>
        ))}
      </select>
      {editing ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.enabled}
            onChange={(e) => setForm({ ...form, enabled: e.target.checked })}
          />
          {t("settings.connections.enabled")}
        </label>
      ) : null}
      <ErrorBox text={error} />
      <div className="row form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

/** The URI an app is given, with its QR and a copy button (the open-app dialog and the cards). */
function ConnectionUri({ index }: { index: number }) {
  const { t } = useI18n();
  const client = useWallet();
  const errorText = useErrorText();
  const [uri, setUri] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    let current = true;
    client
      .dispatch({ _tag: "GetNwcUri", index })
      .then((r) => current && setUri(r.uri))
      .catch((e) => current && setError(errorText(e)));
    return () => {
      current = false;
    };
  }, [client, index]);
  if (error) return <ErrorBox text={error} />;
  if (!uri) return <p className="hint">{t("common.loading")}</p>;
  return (
    <div className="connection-uri">
      <Qr value={uri} size={200} label={t("settings.connections.qr")} />
      <label htmlFor={`connection-uri-${index}`}>{t("settings.connections.uri")}</label>
      <input id={`connection-uri-${index}`} type="text" readOnly value={uri} spellCheck={false} />
      <CopyButton text={uri} />
    </div>
  );
}

function ConnectionCard({
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
  const left = profile.budget_remaining;
  return (
    <li className="connection-card">
      <details open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>
          <span className="connection-name">
            {profile.name}
            {profile.enabled ? null : <small> · {t("settings.connections.disabled")}</small>}
          </span>
          <span className="hint">
            {profile.require_approval
              ? t("settings.connections.require_approval")
              : t("settings.connections.budget_of", {
                  amount: fmt.sats(profile.budget_amount),
                  period: t(`settings.connections.period_${profile.budget_period}`),
                })}
          </span>
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
              <dd>
                {t("settings.connections.budget_of", {
                  amount: fmt.sats(profile.budget_amount),
                  period: t(`settings.connections.period_${profile.budget_period}`),
                })}
              </dd>
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
          <ConnectionUri index={profile.index} />
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

/** An app's authorization request (`?nwa=`): the create-from-request form, its budget fixed by the app. */
function FromRequest({ nwa, onDone }: { nwa: string; onDone: () => void }) {
  const { t } = useI18n();
  const client = useWallet();
  const errorText = useErrorText();
  const [asked, setAsked] = useState<{
    name: string | null;
    budgetSats: bigint | null;
    period: number | null;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    let current = true;
    client
      .dispatch({ _tag: "ReadWalletAuth", nwa })
      .then((r) => current && setAsked(r))
      .catch((e) => current && setError(errorText(e)));
    return () => {
      current = false;
    };
  }, [client, nwa]);
  if (error) return <ErrorBox text={error} />;
  if (!asked) return <p className="hint">{t("common.loading")}</p>;
  return (
    <section aria-labelledby="nwa-title">
      <h2 id="nwa-title">{t("settings.connections.from_request")}</h2>
      <p>{t("settings.connections.from_request_hint", { app: asked.name ?? "" })}</p>
      <ConnectionForm
        initial={{
          ...emptyForm,
          name: asked.name ?? "",
          // amount-text: input value
          budget: (asked.budgetSats ?? 10_000n).toString(),
          period: asked.period ?? 0,
        }}
        editing={false}
        budgetFixed={asked.budgetSats !== null}
        submitLabel={t("settings.connections.approve")}
        onCancel={onDone}
        onSubmit={async (f) => {
          await client.dispatch({
            _tag: "ApproveWalletAuth",
            nwa,
            name: f.name,
            budgetSats: BigInt(f.budget || "0"),
            period: f.period,
            requireApproval: f.requireApproval,
          });
          onDone();
        }}
      />
    </section>
  );
}

/** Wallet-connect connections (spec 2 §3): cards, the add/edit dialog, the open-app dialog, delete. */
export function Connections() {
  const { t } = useI18n();
  const client = useWallet();
  const errorText = useErrorText();
  const [, navigate] = useLocation();
  const nwa = new URLSearchParams(useSearch()).get("nwa");
  const profiles = useView("nwc")?.profiles ?? [];
  const [editing, setEditing] = useState<NwcProfileView | "new" | null>(null);
  const [deleting, setDeleting] = useState<NwcProfileView | null>(null);
  const [opened, setOpened] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.connections.title")}</h1>
      <p>{t("settings.connections.intro")}</p>
      {nwa !== null ? (
        <FromRequest nwa={nwa} onDone={() => navigate("/settings/connections", { replace: true })} />
      ) : null}
      <button type="button" className="button button-primary" onClick={() => setEditing("new")}>
        {t("settings.connections.add")}
      </button>
      <ErrorBox text={error} />
      {profiles.length === 0 ? <p className="empty-state">{t("settings.connections.none")}</p> : null}
      <ul className="connections">
        {profiles.map((p) => (
          <ConnectionCard
            key={p.index}
            profile={p}
            onEdit={() => setEditing(p)}
            onDelete={() => setDeleting(p)}
          />
        ))}
      </ul>
      <Dialog
        open={editing !== null}
        title={editing === "new" ? t("settings.connections.add") : t("settings.connections.edit")}
        onClose={() => setEditing(null)}
      >
        {editing === null ? null : (
          <ConnectionForm
            initial={
              editing === "new"
                ? emptyForm
                : {
                    name: editing.name,
                    // amount-text: input value
                    budget: editing.budget_amount.toString(),
                    period: editing.budget_period,
                    requireApproval: editing.require_approval,
                    enabled: editing.enabled,
                  }
            }
            editing={editing !== "new"}
            budgetFixed={editing !== "new" && editing.budget_fixed}
            submitLabel={
              editing === "new" ? t("settings.connections.create") : t("settings.connections.save")
            }
            onCancel={() => setEditing(null)}
            onSubmit={async (f) => {
              const budgetSats = BigInt(f.budget || "0");
              if (editing === "new") {
                const { index } = await client.dispatch({
                  _tag: "CreateNwcProfile",
                  name: f.name,
                  budgetSats,
                  period: f.period,
                  requireApproval: f.requireApproval,
                });
                setOpened(index);
              } else {
                await client.dispatch({
                  _tag: "EditNwcProfile",
                  index: editing.index,
                  budgetSats,
                  period: f.period,
                  requireApproval: f.requireApproval,
                  enabled: f.enabled,
                });
              }
              setEditing(null);
            }}
          />
        )}
      </Dialog>
      <Dialog
        open={opened !== null}
        title={t("settings.connections.open_app")}
        onClose={() => setOpened(null)}
      >
        <p>{t("settings.connections.open_app_hint")}</p>
        {opened !== null ? <ConnectionUri index={opened} /> : null}
        <button type="button" className="button button-primary" onClick={() => setOpened(null)}>
          {t("settings.connections.done")}
        </button>
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t("settings.connections.delete")}
        message={t("settings.connections.delete_confirm", { name: deleting?.name ?? "" })}
        confirmLabel={t("settings.connections.delete")}
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          const p = deleting;
          setDeleting(null);
          if (!p) return;
          try {
            setError(null);
            await client.dispatch({ _tag: "DeleteNwcProfile", index: p.index });
          } catch (e) {
            setError(errorText(e));
          }
        }}
      />
    </main>
  );
}
