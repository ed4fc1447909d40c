import { useI18n } from "../../i18n/intl";
import { Dialog } from "../../ui/Dialog";
import { useFormat } from "../../ui/useFormat";

/** A question asked once more before anything is paid: what is at stake, then Cancel first, then go on. */
function AskAgain({
  open,
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <div className="column">
        <p role="alert">{text}</p>
        <button type="button" className="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button type="button" className="button button-primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** The second confirmation a high on-chain fee asks before anything is paid. */
export function HighFeeDialog({
  open,
  feeSats,
  amountSats,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  feeSats: bigint;
  amountSats: bigint;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  const fee = fmt.sats(feeSats);
  return (
    <AskAgain
      open={open}
      title={t("send.high_fee_title")}
      text={t("send.high_fee_text", { fee, amount: fmt.sats(amountSats) })}
      confirmLabel={t("send.high_fee_confirm", { fee })}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** Paying an address the same amount again within minutes: asked once more (`minutes` ago, as the worker says). */
export function RepeatDialog({
  minutes,
  amountSats,
  onConfirm,
  onCancel,
}: {
  minutes: string | null;
  amountSats: bigint;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  return (
    <AskAgain
      open={minutes !== null}
      title={t("send.repeat_title")}
      text={t("send.repeat_text", { amount: fmt.sats(amountSats), minutes: minutes ?? "1" })}
      confirmLabel={t("send.repeat_confirm")}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** Why a payment costs a fee, on-chain or over lightning. */
export function WhyFeesDialog({
  open,
  onchain,
  onClose,
}: {
  open: boolean;
  onchain: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} title={t("send.why_fees")} onClose={onClose}>
      <p>{t(onchain ? "send.why_fees_onchain" : "send.why_fees_lightning")}</p>
    </Dialog>
  );
}
