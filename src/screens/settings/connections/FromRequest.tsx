import { useI18n } from "../../../i18n/intl";
import { ErrorBox } from "../../../ui/errors";
import { useAnswer, useWallet } from "../../../ui/wallet";
import { ConnectionForm, emptyForm } from "./ConnectionForm";

/** An app's authorization request (`?nwa=`): the create-from-request form, its budget fixed by the app. */
export function FromRequest({ nwa, onDone }: { nwa: string; onDone: () => void }) {
  const { t } = useI18n();
  const client = useWallet();
  const answer = useAnswer({ _tag: "ReadWalletAuth", nwa }, nwa);
  const asked = answer.value;
  if (answer.error) return <ErrorBox text={answer.error} />;
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
