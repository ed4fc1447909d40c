import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useI18n } from "../../i18n/intl";
import type { NwcProfileView } from "../../projections/nwc";
import { BackControl } from "../../ui/BackControl";
import { ConfirmDialog, Dialog, NoticeDialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useView, useWallet } from "../../ui/wallet";
import { ConnectionCard, ConnectionUri } from "./connections/ConnectionCard";
import { ConnectionForm, emptyForm } from "./connections/ConnectionForm";
import { FromRequest } from "./connections/FromRequest";

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
      <NoticeDialog
        open={opened !== null}
        title={t("settings.connections.open_app")}
        message={t("settings.connections.open_app_hint")}
        actionLabel={t("settings.connections.done")}
        onClose={() => setOpened(null)}
      >
        {opened !== null ? <ConnectionUri index={opened} /> : null}
      </NoticeDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t("settings.connections.delete")}
        message={
          // Plus renews through its own connection: deleting it ends the membership at its date.
          deleting?.tag === "Subscription"
            ? t("settings.connections.delete_plus_confirm")
            : t("settings.connections.delete_confirm", { name: deleting?.name ?? "" })
        }
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
