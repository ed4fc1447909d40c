/**
 * Every feature's attachment to the host (its hooks and what it does around commands), in the order of the
 * features' list (`features.ts`): the host itself names none.
 */
import type { Attach } from "../attached";
import { features } from "../features";

export const attachments: readonly Attach[] = features.flatMap((f) => (f.attachment ? [f.attachment] : []));
