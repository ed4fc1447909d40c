/**
 * An activity row's details dialog follows the views while it is open: the row it shows is the one of that
 * id as the activity view has it now, and its status is what the latest answers say (a payment that
 * failed, a transaction that confirmed or was dropped), never what it was when the owner tapped it.
 */
import type { ActivityItem, LightningDetails } from "../../projections/activity";

/**
 * The row the dialog shows: `opened`'s row as `items` (the activity view now) has it, or `opened` as it was
 * when the view no longer lists it (a failed payment leaves the list; a row may fall off its page).
 */
export const followRow = (
  items: readonly ActivityItem[] | undefined,
  opened: ActivityItem | null,
): ActivityItem | null => {
  if (!opened) return null;
  return items?.find((i) => i.id === opened.id && i.kind === opened.kind) ?? opened;
};

export type RowStatus = "failed" | "dropped" | "pending" | "done";

/** What the dialog says of `item`'s state, with the lightning payment's own status when it was asked. */
export const rowStatus = (item: ActivityItem, payment: LightningDetails | null): RowStatus => {
  if (payment?.status === "failed") return "failed";
  if (item.dropped) return "dropped";
  if (payment?.status === "succeeded") return "done";
  return item.last_updated === 0 ? "pending" : "done";
};

/** The catalogue key of each status. */
export const STATUS_KEY: Record<RowStatus, string> = {
  failed: "activity.failed",
  dropped: "activity.dropped",
  pending: "activity.unconfirmed",
  done: "activity.confirmed",
};
