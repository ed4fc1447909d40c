import type { ReactNode } from "react";

/**
 * One of home's notices, as its status line draws it: what it says, the one thing to do about it, and how
 * urgent it is (`alert` for what puts money or lightning at stake, `status` for the rest). `label` names
 * the line for assistive technology when the text alone does not (a custodian shutting down). `heading`: the
 * few words the line starts with, drawn apart from its text (a partner punished). `card`: a
 * notice that is its own card (the restore's figures), drawn as it is.
 */
export interface Notice {
  readonly id: string;
  readonly tone: "alert" | "status";
  readonly heading?: string;
  readonly text?: string;
  readonly title?: string;
  readonly label?: string;
  readonly action?: ReactNode;
  readonly card?: ReactNode;
}
