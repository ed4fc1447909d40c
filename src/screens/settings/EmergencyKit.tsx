import { Upload } from "lucide-react";
import { FilePicker } from "../../ui/FilePicker";
import { ErrorBox } from "../../ui/errors";
import { download } from "../../ui/download";
import { Form, TextField, type ActionOptions, useAction, useToastFailure } from "../../ui/form";
import { useRef, useState } from "react";
import { CommandFailed } from "../../commands/client";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { DangerZone } from "../../ui/DangerZone";
import { ConfirmDialog, Dialog } from "../../ui/Dialog";
import { useEmergency } from "../../ui/emergency";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { AFTER_SAVE_MS } from "../routes";

const PROFILE_SETUP_STAGE_KEY = "profile_setup_stage";

/** A dialog asking for the state file's password. */
function PasswordDialog(props: {
  open: boolean;
  id: string;
  title: string;
  caption?: string;
  autoComplete: "new-password" | "current-password";
  submitLabel: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <Form onSubmit={props.onSubmit}>
        {props.caption ? <p>{props.caption}</p> : null}
        <TextField
          id={props.id}
          label={t("settings.emergency_kit.import_export.password")}
          type="password"
          autoComplete={props.autoComplete}
          value={props.value}
          onValue={props.onChange}
        />
        <ErrorBox text={props.error} />
        <button type="submit" className="button button-primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
      </Form>
    </Dialog>
  );
}

/** Labels as BIP-329 JSON Lines, to carry them to and from other wallets. */
function LabelsSection() {
  const { t } = useI18n();
  const client = useWallet();
  const toast = useToast();
  const wallet = useView("wallet");
  const { run } = useAction();
  const toasted = { explain: useToastFailure() };
  const exportLabels = () =>
    run(async () => {
      const { jsonl, fileName } = await client.dispatch({ _tag: "ExportLabels" });
      download(jsonl, fileName, "application/jsonl");
    }, toasted);
  const importLabels = async (file: File | undefined, input: HTMLInputElement) => {
    if (!file) return;
    await run(async () => {
      const { imported, badLines } = await client.dispatch({ _tag: "ImportLabels", text: await file.text() });
      toast({
        title: t("settings.emergency_kit.labels.imported", { count: imported, bad: badLines.length }),
      });
    }, toasted);
    input.value = "";
  };
  return (
    <section className="card column" aria-labelledby="ek-labels">
      <h2 id="ek-labels">{t("settings.emergency_kit.labels.title")}</h2>
      <p>{t("settings.emergency_kit.labels.caption")}</p>
      <button type="button" className="button" onClick={exportLabels} disabled={!wallet?.exists}>
        {t("settings.emergency_kit.labels.export")}
      </button>
      <FilePicker
        accept=".jsonl,.json,application/jsonl,text/plain"
        disabled={!wallet?.exists}
        onFile={(file, input) => importLabels(file, input)}
      >
        <Upload aria-hidden="true" size={18} />
        {t("settings.emergency_kit.labels.import")}
      </FilePicker>
    </section>
  );
}

/** In emergency mode: why the wallet did not start, and its logs to download (the failure, then the node's). */
function FailureSection({ failure }: { failure: string }) {
  const { t } = useI18n();
  const client = useWallet();
  const downloadLogs = async () => {
    const { lines } = await client.dispatch({ _tag: "GetLogs" }).catch(() => ({ lines: [] as string[] }));
    download(
      [`${new Date().toISOString()} ${failure}`, ...lines].join("\n"),
      "mutiny-logs.txt",
      "text/plain",
    );
  };
  return (
    <section className="card column" aria-labelledby="ek-failure">
      <h2 id="ek-failure">{t("boot.error.failed.title")}</h2>
      <p className="error-box" role="alert">
        {failure}
      </p>
      <button type="button" className="button" onClick={() => void downloadLogs()}>
        {t("admin.download_logs")}
      </button>
    </section>
  );
}

/** The way out when something breaks: save and import the whole state, safe mode, delete everything. */
export function EmergencyKit() {
  const { t } = useI18n();
  const client = useWallet();
  const wallet = useView("wallet");
  const toast = useToast();
  const toastFailure = useToastFailure();
  const emergency = useEmergency();
  const toasted: ActionOptions = { explain: toastFailure };
  const { run } = useAction();

  // Save state: always sealed with a password, so the seed never leaves the device in the clear.
  const [exportOpen, setExportOpen] = useState(false);
  const [exportPassword, setExportPassword] = useState("");
  const exporting = useAction();
  const saveState = () =>
    exporting.run(async () => {
      const { json, fileName } = await client.dispatch({ _tag: "ExportState", password: exportPassword });
      download(json, fileName, "application/json");
      setExportOpen(false);
      setExportPassword("");
    });

  // Import state: pick a file, confirm the replace, give its password.
  const fileInput = useRef<HTMLInputElement>(null);
  const [importText, setImportText] = useState<string | null>(null);
  const [importPassword, setImportPassword] = useState("");
  const [importStep, setImportStep] = useState<"idle" | "confirm" | "password">("idle");
  const importing = useAction();
  const setImportError = importing.setError;
  const pickFile = async (file: File | undefined) => {
    setImportError(null);
    if (!file) return;
    try {
      const text = await file.text();
      if (!text) {
        setImportError(t("settings.emergency_kit.import_export.error_no_text"));
        return;
      }
      setImportText(text);
      setImportStep("confirm");
    } catch {
      setImportError(t("settings.emergency_kit.import_export.error_read_file"));
    } finally {
      if (fileInput.current) fileInput.current.value = "";
    }
  };
  const runImport = (password?: string) => {
    if (importText === null) return;
    return importing.run(
      async () => {
        await client.dispatch({ _tag: "ImportState", text: importText, ...(password ? { password } : {}) });
        client.stop();
        toast({ title: t("settings.emergency_kit.import_export.imported") });
        setTimeout(() => location.assign("/"), AFTER_SAVE_MS);
      },
      {
        stayBusy: true,
        explain: (err, text) => {
          if (err instanceof CommandFailed && err._tag === "PasswordRequired") {
            setImportStep("password");
            return null;
          }
          if (!(err instanceof CommandFailed && err._tag === "WrongPassword")) setImportStep("idle");
          return text;
        },
      },
    );
  };

  const [deleteOpen, setDeleteOpen] = useState(false);
  const deleting = useAction();
  const deleteEverything = () =>
    deleting.run(
      async () => {
        localStorage.removeItem(PROFILE_SETUP_STAGE_KEY);
        await client.dispatch({ _tag: "DeleteEverything" });
        client.stop();
        toast({
          title: t("settings.emergency_kit.delete_everything.deleted"),
          description: t("settings.emergency_kit.delete_everything.deleted_description"),
        });
        setTimeout(() => location.assign("/"), AFTER_SAVE_MS);
      },
      {
        stayBusy: true,
        explain: (e, text) => {
          setDeleteOpen(false);
          return toastFailure(e, text);
        },
      },
    );

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.emergency_kit.title")}</h1>
      <p>{t("settings.emergency_kit.caption")}</p>
      {emergency ? <FailureSection failure={emergency.failure} /> : null}

      <section className="card column" aria-labelledby="ek-state">
        <h2 id="ek-state">{t("settings.emergency_kit.import_export.title")}</h2>
        <p>{t("settings.emergency_kit.import_export.caption")}</p>
        <button
          type="button"
          className="button"
          onClick={() => setExportOpen(true)}
          disabled={!wallet?.exists}
        >
          {t("settings.emergency_kit.import_export.save_state")}
        </button>
        <FilePicker inputRef={fileInput} accept="application/json,.json" onFile={(file) => pickFile(file)}>
          <Upload aria-hidden="true" size={18} />
          {t("settings.emergency_kit.import_export.import_state")}
        </FilePicker>
        <ErrorBox text={importStep !== "password" ? importing.error : null} />
      </section>

      <LabelsSection />

      <section className="card column" aria-labelledby="ek-safe">
        <h2 id="ek-safe">{t("settings.emergency_kit.safe_mode.title")}</h2>
        <p>{t("settings.emergency_kit.safe_mode.caption")}</p>
        <label className="check-row">
          <input
            type="checkbox"
            checked={wallet?.safe_mode ?? false}
            disabled={!wallet}
            onChange={(e) =>
              void run(() => client.dispatch({ _tag: "SetSafeMode", enabled: e.target.checked }), toasted)
            }
          />
          {t("settings.emergency_kit.safe_mode.toggle")}
        </label>
      </section>

      <DangerZone id="ek-danger" caption={t("settings.emergency_kit.delete_everything.caption")}>
        <button type="button" className="button button-danger" onClick={() => setDeleteOpen(true)}>
          {t("settings.emergency_kit.delete_everything.delete")}
        </button>
      </DangerZone>

      <PasswordDialog
        open={exportOpen}
        id="export-password"
        title={t("settings.emergency_kit.import_export.save_state")}
        caption={t("settings.emergency_kit.import_export.password_caption")}
        autoComplete="new-password"
        submitLabel={t("settings.emergency_kit.import_export.download")}
        value={exportPassword}
        onChange={setExportPassword}
        error={exporting.error}
        busy={exporting.busy}
        onSubmit={saveState}
        onClose={() => setExportOpen(false)}
      />

      <ConfirmDialog
        open={importStep === "confirm"}
        title={t("settings.emergency_kit.import_export.confirm_title")}
        message={t("settings.emergency_kit.import_export.confirm_replace")}
        busy={importing.busy}
        onCancel={() => setImportStep("idle")}
        onConfirm={() => void runImport()}
      />
      <PasswordDialog
        open={importStep === "password"}
        id="import-password"
        title={t("settings.emergency_kit.import_export.import_state")}
        autoComplete="current-password"
        submitLabel={t("settings.emergency_kit.import_export.import_state")}
        value={importPassword}
        onChange={setImportPassword}
        error={importing.error}
        busy={importing.busy}
        onSubmit={() => void runImport(importPassword)}
        onClose={() => setImportStep("idle")}
      />
      <ConfirmDialog
        open={deleteOpen}
        danger
        title={t("settings.emergency_kit.delete_everything.confirm_title")}
        message={t("settings.emergency_kit.delete_everything.confirm")}
        confirmLabel={t("settings.emergency_kit.delete_everything.delete")}
        busy={deleting.busy}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={() => void deleteEverything()}
      />
    </main>
  );
}
