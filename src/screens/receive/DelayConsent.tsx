import { useState } from "react";
import { CommandFailed } from "../../commands/client";
import { useI18n } from "../../i18n/intl";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { useWallet } from "../../ui/wallet";

/** An LSP's shorter safety delay the owner may accept: its node and the delay, in blocks and days. */
export interface DelayAsk {
  readonly lsp: string;
  readonly blocks: number;
  readonly days: number;
}

/** The ask in an LSP's refusal of the wallet's two-week delay; null for any other failure. */
export const delayAskOf = (e: unknown): DelayAsk | null => {
  if (!(e instanceof CommandFailed) || e.key !== "receive.error_lsp_delay_refused" || !e.values) return null;
  const { lsp, max, days } = e.values;
  const blocks = Number(max);
  if (!lsp || !Number.isInteger(blocks)) return null;
  return { lsp, blocks, days: Number(days ?? 0) };
};

/**
 * Beside the LSP's refusal (which says what a shorter delay means): accepting its delay, which the wallet
 * records and asks of that LSP from then on, or not (nothing changes). Never decided for the owner.
 */
export function DelayConsent({
  ask,
  onAccepted,
  onDeclined,
}: {
  ask: DelayAsk;
  onAccepted: () => void;
  onDeclined: () => void;
}) {
  const { t, intl } = useI18n();
  const blocks = intl.formatNumber(ask.blocks);
  const client = useWallet();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "AcceptLspDelay", lsp: ask.lsp, blocks: ask.blocks });
      onAccepted();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card column" aria-label={t("receive.delay_consent_title")}>
      <p>{t("receive.delay_consent_body", { blocks, days: ask.days })}</p>
      <div className="row">
        <button type="button" className="button button-primary" disabled={busy} onClick={accept}>
          {t("receive.delay_accept", { blocks })}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onDeclined}>
          {t("receive.delay_decline")}
        </button>
      </div>
      <ErrorBox text={error} />
    </section>
  );
}
