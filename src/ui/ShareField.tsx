import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";

/**
 * One thing to share, centred: its label on a line, the text itself on the next (broken only if it does not
 * fit a line, never the label's words), and a copy button. `shown`: what is written when it is shortened;
 * `children`: what stands between the label and the text (its QR code).
 */
export function ShareField({
  label,
  text,
  shown,
  className,
  testId,
  copyLabel,
  children,
}: {
  readonly label: string;
  readonly text: string;
  readonly shown?: string;
  readonly className?: string;
  readonly testId?: string;
  readonly copyLabel?: string;
  readonly children?: ReactNode;
}) {
  return (
    <div className="share-field">
      <span className="field-label">{label}</span>
      {children}
      <span
        className={className ? `share-value ${className}` : "share-value"}
        title={text}
        data-testid={testId}
      >
        {shown ?? text}
      </span>
      <CopyButton text={text} label={copyLabel} />
    </div>
  );
}
